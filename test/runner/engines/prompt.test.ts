import { describe, expect, it } from "vitest";
import { toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir } from "../../helpers/temp.js";
import { dispatcherFor } from "./helpers.js";

describe("prompt engine", () => {
  it("injects its text, attributed to the hook's name", async () => {
    const dispatcher = dispatcherFor(
      [{ name: "house-style", engine: "prompt", events: ["llm_before"], text: "Answer in British English." }],
      await tempDir(),
      recordingLogger(),
    );
    const outcome = await dispatcher.dispatch("llm_before", {
      sessionId: "session-1",
      systemPrompt: "You are helpful.",
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      model: "scripted",
    });
    expect(outcome.injects).toEqual([{ hook: "house-style", text: "Answer in British English." }]);
    expect(outcome.verdict).toBe("allow");
  });

  it("injects only where its matcher matches", async () => {
    const dispatcher = dispatcherFor(
      [
        {
          name: "shell-advice",
          engine: "prompt",
          events: ["tool_before"],
          matcher: { tool: "^bash$" },
          text: "Quote your paths.",
        },
      ],
      await tempDir(),
      recordingLogger(),
    );
    const bash = await dispatcher.dispatch("tool_before", toolBefore({ tool: "bash" }));
    const read = await dispatcher.dispatch("tool_before", toolBefore({ tool: "read_file" }));
    expect(bash.injects).toEqual([{ hook: "shell-advice", text: "Quote your paths." }]);
    expect(read.injects).toEqual([]);
  });
});
