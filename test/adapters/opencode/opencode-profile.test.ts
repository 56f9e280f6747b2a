import { describe, expect, it } from "vitest";
import { AgentInputError } from "../../../adapters/agent-input-error.js";
import { opencodeProfile } from "../../../adapters/opencode/profile.js";
import { profileEvents } from "../../../adapters/profile-events.js";
import { profileNamed } from "../../../adapters/profiles.js";
import type { HookDefinition } from "../../../core/hook.js";
import { hooksOf } from "../../helpers/hooks.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir } from "../../helpers/temp.js";

/** Inputs as hookyard's plugin sends them (integrations/opencode/hookyard.ts). */
const inputs: Record<string, Record<string, unknown>> = {
  "tool.execute.before": {
    session_id: "ses_1",
    cwd: "/p",
    tool: "write",
    call_id: "toolu_1",
    args: { filePath: "/p/a.txt", content: "ORIGINAL" },
  },
  "tool.execute.after": {
    session_id: "ses_1",
    tool: "bash",
    call_id: "toolu_2",
    args: { command: "cat .env" },
    output: "API_KEY=s3cret",
    title: "cat .env",
  },
  "chat.message": { session_id: "ses_1", prompt: "my password is x", agent: "build" },
  "session.created": { session_id: "ses_1", cwd: "/p" },
};

async function answer(event: string, hook: HookDefinition) {
  const hooks = hooksOf(await tempDir(), [hook], recordingLogger());
  const result = await opencodeProfile.handle(hooks, event, inputs[event]);
  return { ...result, body: JSON.parse(result.stdout) as Record<string, unknown> };
}

describe("the opencode profile", () => {
  it("is registered by name, both its light and its full part", () => {
    expect(profileNamed("opencode")).toBe(opencodeProfile);
    expect(profileEvents("opencode")?.point("tool.execute.before")).toBe("tool_before");
    expect(profileEvents("opencode")?.point("chat.params")).toBeUndefined();
  });

  it("maps write's filePath to args.path and back, and OpenCode's tool names to ours", async () => {
    const seen: unknown[] = [];
    const { body } = await answer("tool.execute.before", {
      name: "rewriter",
      on: {
        tool_before(ctx) {
          seen.push(ctx.tool, { ...ctx.args });
          ctx.args.content = "REWRITTEN";
        },
      },
    });
    expect(seen).toEqual(["write_file", { path: "/p/a.txt", content: "ORIGINAL" }]);
    expect(body).toEqual({ args: { filePath: "/p/a.txt", content: "REWRITTEN" } });
  });

  it("a block is the plugin's `block` with the hook's name; a result rewrite is `output`; an inject is `inject`", async () => {
    const blocked = await answer("chat.message", {
      name: "g",
      on: { turn_before: (ctx) => (ctx.prompt.includes("password") ? { block: "no passwords" } : undefined) },
    });
    expect(blocked.body).toEqual({ block: 'Blocked by hook "g": no passwords' });
    const redacted = await answer("tool.execute.after", {
      name: "r",
      on: {
        tool_after(ctx) {
          ctx.result = ctx.result.replace("s3cret", "[redacted]");
          return { inject: "be careful" };
        },
      },
    });
    expect(redacted.body.output).toBe("API_KEY=[redacted]");
    expect(redacted.body.inject).toContain("be careful");
  });

  it("an ask is refused (the plugin has nobody to ask); nothing to say is `{}`", async () => {
    const asked = await answer("tool.execute.before", {
      name: "a",
      on: { tool_before: () => ({ ask: "sure?" }) },
    });
    expect(asked.body.block).toContain('hook "a": sure?');
    const quiet = await answer("session.created", { name: "q", on: { agent_before() {} } });
    expect(quiet.stdout).toBe("{}\n");
  });

  it("refuses what it cannot check at tool.execute.before and chat.message (exit 2, a block), not elsewhere", () => {
    const refusal = opencodeProfile.refusal("tool.execute.before", "no hook could run");
    expect(refusal?.exitCode).toBe(2);
    expect(JSON.parse(refusal?.stdout ?? "")).toEqual({
      block: "hookyard could not check this tool call, so it is refused: no hook could run",
    });
    expect(opencodeProfile.refusal("chat.message", "x")?.exitCode).toBe(2);
    expect(opencodeProfile.refusal("tool.execute.after", "x")).toBeUndefined();
    expect(() => opencodeProfile.parseInput("tool.execute.before", '{"tool":"bash"}')).toThrow(
      AgentInputError,
    );
  });
});
