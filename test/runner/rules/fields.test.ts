import { describe, expect, it } from "vitest";
import type { CtxOf, Point } from "../../../core/events.js";
import { toolBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

/** One rule per case: event, field, a regex; the test checks it fires on `ctx` at `point`. */
async function fires<P extends Point>(
  event: string,
  field: string,
  pattern: string,
  point: P,
  ctx: CtxOf<P>,
): Promise<boolean> {
  const { hooks } = await rulesWorkspace({
    ".hookyard/rules/probe.md": ruleFile(
      `event: ${event}\nconditions:\n  - field: ${field}\n    pattern: '${pattern}'`,
    ),
  });
  expect(hooks.problems).toEqual([]);
  return (await hooks.dispatch(point, ctx)).notices.length === 1;
}

describe("rules: the field table", () => {
  it.each([
    [
      "file_path, from our write_file's path",
      "file",
      "file_path",
      "^src/a\\.ts$",
      { path: "src/a.ts", content: "x" },
    ],
    [
      "new_text, from our write_file's content",
      "file",
      "new_text",
      "^hello$",
      { path: "a", content: "hello" },
    ],
    [
      "file_path, from the agent's file_path",
      "file",
      "file_path",
      "^b\\.ts$",
      { file_path: "b.ts", new_string: "x" },
    ],
    [
      "new_text, from the agent's new_string",
      "file",
      "new_text",
      "^new$",
      { file_path: "b", old_string: "old", new_string: "new" },
    ],
    [
      "old_text, from the agent's old_string",
      "file",
      "old_text",
      "^old$",
      { file_path: "b", old_string: "old", new_string: "new" },
    ],
    [
      "new_text, every edit of a multi-edit",
      "file",
      "new_text",
      "^one\\ntwo$",
      { file_path: "b", edits: [{ new_string: "one" }, { new_string: "two" }] },
    ],
    ["content, what a write writes", "file", "content", "^body$", { file_path: "b", content: "body" }],
    ["args.<name>, any argument by path", "tool_before", "args.mode", "^0755$", { path: "x", mode: "0755" }],
    ["args, all of them as JSON", "tool_before", "args", '"force":true', { command: "x", force: true }],
  ])("%s", async (_title, event, field, pattern, args) => {
    expect(await fires(event, field, pattern, "tool_before", toolBefore({ tool: "write_file", args }))).toBe(
      true,
    );
  });

  it("result at tool_after and error at tool_error", async () => {
    expect(
      await fires("tool_after", "result", "^total", "tool_after", { ...toolBefore(), result: "total 0" }),
    ).toBe(true);
    expect(
      await fires("tool_error", "error", "ENOENT", "tool_error", {
        ...toolBefore(),
        error: "ENOENT: no file",
      }),
    ).toBe(true);
  });

  it("prompt, user_prompt and content at prompt; answer, last_assistant_message and transcript at stop", async () => {
    const prompt = { sessionId: "s1", prompt: "please deploy", history: [] };
    for (const field of ["prompt", "user_prompt", "content"]) {
      expect(await fires("prompt", field, "deploy", "turn_before", prompt)).toBe(true);
    }
    const stop: CtxOf<"turn_after"> = {
      sessionId: "s1",
      answer: "all done",
      messages: [
        { role: "user", content: "fix it" },
        { role: "assistant", content: "all done" },
      ],
    };
    for (const field of ["answer", "last_assistant_message"]) {
      expect(await fires("stop", field, "^all done$", "turn_after", stop)).toBe(true);
    }
    expect(
      await fires("stop", "transcript", "^user: fix it\\nassistant: all done$", "turn_after", stop),
    ).toBe(true);
  });

  it("any ctx field of our points, by path", async () => {
    expect(
      await fires("notify", "message", "waiting", "notify", {
        sessionId: "s1",
        message: "waiting for you",
        level: "info",
      }),
    ).toBe(true);
    const response = { content: "SECRET", toolCalls: [] };
    const llmAfter = {
      sessionId: "s1",
      response,
      usage: { inputTokens: 1, outputTokens: 1 },
      latencyMs: 1,
      model: "m",
    };
    expect(await fires("llm_after", "response.content", "^SECRET$", "llm_after", llmAfter)).toBe(true);
  });

  it("a field that no point of the event has is a load problem that lists the fields there", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/wrong.md": ruleFile("event: prompt\nconditions:\n  - field: command\n    pattern: x"),
    });
    expect(hooks.problems.map((p) => p.message)).toEqual([
      'conditions[0].field: "command" is not a field of event "prompt"; fields there: sessionId, prompt, history, user_prompt, content',
    ]);
  });
});

describe("a rule file with several mistakes", () => {
  it("reports every one of them at once, each naming its field", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/r.md": ruleFile("event: bsh\naction: maybe\npatern: x"),
    });
    const message = hooks.problems.find((p) => p.name === "r")?.message ?? "";
    expect(message).toMatch(/^event: "bsh" is not an event here; use one of: .*bash/);
    expect(message).toContain('; action: Invalid option: expected one of "warn"|"block"');
    expect(message).toContain("; patern: is not a rule field");
  });
});
