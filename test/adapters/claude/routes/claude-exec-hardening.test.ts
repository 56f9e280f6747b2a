import { describe, expect, it } from "vitest";
import { hookyard } from "../../../helpers/cli.js";
import { workspace } from "../../../helpers/temp.js";

const chattyGuard = `import { defineHook } from "hookyard";
console.dir({ loading: true });
export default defineHook({
  name: "chatty-guard",
  on: {
    tool_before(ctx) {
      console.dir({ debugging: ctx.tool });
      console.table([{ a: 1 }]);
      if (String(ctx.args.command).includes("rm")) return { block: "no rm here" };
    },
  },
});
`;

function preToolUse(cwd: string, toolInput: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    session_id: "s1",
    transcript_path: `${cwd}/t.jsonl`,
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: toolInput,
    tool_use_id: "t1",
    ...extra,
  });
}

function nested(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("hookyard exec holds where a model could slip past it", () => {
  it("whatever a hook prints through console, stdout is the answer alone", async () => {
    const cwd = await workspace({ ".hookyard/hooks/chatty-guard.ts": chattyGuard });
    const result = await hookyard(["exec", "--profile", "claude", "PreToolUse"], {
      cwd,
      input: preToolUse(cwd, { command: "rm x" }),
    });
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("no rm here"),
    });
    expect(result.stderr).toContain("debugging");
  });

  it("a tool call or prompt too deep to check, or not the agent's input at all, is refused, not waved through", async () => {
    const cwd = await workspace({ ".hookyard/hooks/chatty-guard.ts": chattyGuard });
    const deep = await hookyard(["exec", "--profile", "claude", "PreToolUse"], {
      cwd,
      input: preToolUse(cwd, { command: "rm -rf /" }, { x: nested(200) }),
    });
    expect(deep.code).toBe(0);
    expect(JSON.parse(deep.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("could not check this tool call"),
    });
    const garbage = await hookyard(["exec", "--profile", "claude", "PreToolUse"], {
      cwd,
      input: "{ not json",
    });
    expect(garbage.code).toBe(0);
    expect(JSON.parse(garbage.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const prompt = await hookyard(["exec", "--profile", "claude", "UserPromptSubmit"], {
      cwd,
      input: JSON.stringify({
        session_id: "s1",
        cwd,
        hook_event_name: "UserPromptSubmit",
        prompt: "hi",
        x: nested(200),
      }),
    });
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain("could not check this prompt");
  });

  it("an event it does not map passes through unread; a near miss of one it maps is called out", async () => {
    const cwd = await workspace();
    const other = await hookyard(["exec", "--profile", "claude", "PermissionRequest"], {
      cwd,
      input: "x".repeat(9 * 1024 * 1024),
    });
    expect(other).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const typo = await hookyard(["exec", "--profile", "claude", "pretooluse"], {
      cwd,
      input: preToolUse(cwd, { command: "ls" }),
    });
    expect(typo.code).toBe(0);
    expect(typo.stdout).toBe("");
    expect(typo.stderr).toContain('unknown event "pretooluse" passed through: did you mean PreToolUse?');
  });
});
