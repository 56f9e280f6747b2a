import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliResult, hookyard } from "../../../helpers/cli.js";
import { installFixture, noticeHook } from "../../../helpers/lock-fixture.js";
import { tempDir, workspace } from "../../../helpers/temp.js";
import { inputFor, type MappedEvent } from "../protocol/claude-profile-inputs.js";

/**
 * `hookyard exec --profile claude <Event>` through the real bin (dist/: build first), on a
 * workspace with a trusted hook file, hookyard.json hooks (command, prompt) and a sandboxed
 * community hook from the lock, as that agent would run it: its JSON on stdin.
 */
const guardHook = `export default {
  name: "guard",
  on: {
    tool_before(ctx) {
      console.log("guard looked at", ctx.tool);
      if (ctx.tool === "bash" && /rm -rf/.test(ctx.args.command)) return { block: "rm -rf is not allowed" };
    },
    turn_before(ctx) {
      if (/password/i.test(ctx.prompt)) return { block: "the prompt holds a password" };
    },
    turn_after(ctx) {
      if (!/tests pass/.test(ctx.answer)) return { continue: "run the tests, then say they pass" };
    },
  },
};
`;

const entries = [
  {
    name: "no-env-writes",
    engine: "command",
    events: ["tool_before"],
    matcher: { "agent.tool": "^(Write|Edit)$" },
    command: "if grep -q '[.]env\"'; then echo 'writing .env is not allowed' >&2; exit 2; fi",
  },
  { name: "house-style", engine: "prompt", events: ["agent_before"], text: "Use tabs." },
];

async function fullWorkspace(config: Record<string, unknown> = {}): Promise<string> {
  const root = await workspace({
    ".hookyard/hooks/guard.mjs": guardHook,
    "hookyard.json": { rules: entries, ...config },
  });
  await installFixture(root, [
    {
      name: "seen",
      source: noticeHook("seen", '"sandboxed hook saw " + ctx.tool', "tool_after"),
      hookyard: { events: ["tool_after"] },
    },
  ]);
  return root;
}

function exec(root: string, event: string, input: unknown, cwd = root): Promise<CliResult> {
  const body = typeof input === "string" ? input : JSON.stringify(input);
  return hookyard(["exec", "--profile", "claude", event], { cwd, input: body });
}

function claude(root: string, event: MappedEvent, changes: Record<string, unknown> = {}) {
  return exec(root, event, inputFor(event, { cwd: root, ...changes }));
}

const noStack = /\n\s+at /;

describe("hookyard exec --profile claude", () => {
  it("denies a PreToolUse with JSON on stdout and exit 0; a hook's console.log goes to stderr", async () => {
    const root = await fullWorkspace();
    const result = await claude(root, "PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Blocked by hook "guard": rm -rf is not allowed',
      },
    });
    expect(result.stderr).toContain("guard looked at bash");
  });

  it("runs a command hook matched on the agent's tool name (exit 2 there is a deny here)", async () => {
    const root = await fullWorkspace();
    const write = { tool_name: "Write", tool_input: { file_path: `${root}/.env`, content: "A=1" } };
    const result = await claude(root, "PreToolUse", write);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: 'Blocked by hook "no-env-writes": writing .env is not allowed',
    });
    const fine = await claude(root, "PreToolUse", { ...write, tool_input: { file_path: `${root}/a.txt` } });
    expect(fine).toMatchObject({ code: 0, stdout: "" });
  });

  it("runs the sandboxed community hook at PostToolUse and drains the audit log before exiting", async () => {
    const root = await fullWorkspace();
    const result = await claude(root, "PostToolUse");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ systemMessage: "seen: sandboxed hook saw bash" });
    const audit = await readFile(join(root, ".hookyard", "logs", "audit.jsonl"), "utf8");
    expect(audit).toContain('"point":"tool_after"');
    expect(audit).toContain('"callId":"toolu_02"');
  });

  it("blocks a prompt with exit 2 and the reason on stderr, nothing on stdout", async () => {
    const root = await fullWorkspace();
    const result = await claude(root, "UserPromptSubmit", { prompt: "my password is hunter2" });
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toBe('Blocked by hook "guard": the prompt holds a password');
  });

  it("writes a SessionStart inject as plain text, which that event takes as context", async () => {
    const root = await fullWorkspace();
    const result = await claude(root, "SessionStart");
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe('<hookyard-inject hook="house-style">\nUse tabs.\n</hookyard-inject>');
  });

  it("asks the agent to go on at Stop, and lets it stop when stop_hook_active is true", async () => {
    const root = await fullWorkspace();
    const more = await claude(root, "Stop");
    expect(more.code).toBe(0);
    expect(JSON.parse(more.stdout)).toEqual({
      decision: "block",
      reason: "run the tests, then say they pass",
    });
    const stop = await claude(root, "Stop", { stop_hook_active: true });
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).not.toHaveProperty("decision");
  });

  it("answers the events no hook here decides with exit 0 and nothing", async () => {
    const root = await fullWorkspace();
    for (const event of ["PostToolUseFailure", "SessionEnd", "PreCompact", "Notification"] as const) {
      expect(await claude(root, event)).toMatchObject({ code: 0, stdout: "", stderr: "" });
    }
  });

  it("passes an event it does not map through: exit 0, no output, stdin not even read as JSON", async () => {
    const root = await fullWorkspace();
    expect(await exec(root, "PermissionRequest", "not json at all")).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("refuses stdin that is not JSON, or not that agent's input, with exit 1 and one line (where nothing waits on the answer)", async () => {
    const root = await fullWorkspace();
    const garbage = await exec(root, "PostToolUse", "{ not json");
    expect(garbage).toMatchObject({ code: 1, stdout: "" });
    expect(garbage.stderr).toMatch(/^hookyard: RUN_ERR_AGENT_INPUT: stdin is not valid JSON: .*\n$/);
    const shape = await exec(root, "PostToolUse", { session_id: "s", tool_name: "Bash", tool_input: "rm" });
    expect(shape).toMatchObject({ code: 1, stdout: "" });
    expect(shape.stderr).toMatch(
      /^hookyard: RUN_ERR_AGENT_INPUT: the PostToolUse input is invalid: tool_input: .*\n$/,
    );
    expect(garbage.stderr + shape.stderr).not.toMatch(noStack);
  });

  it("denies a PreToolUse when hookyard.json is broken (which guards it holds is unknown); other events go on, told no hook ran", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook, "hookyard.json": "{ rules: [" });
    const result = await claude(root, "PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^hookyard: RUN_ERR_CONFIG_INVALID: .*hookyard.json is not valid JSON/);
    expect(result.stderr).not.toMatch(noStack);
    const output = JSON.parse(result.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("deny");
    expect(output.permissionDecisionReason).toMatch(/hooks could not be loaded: RUN_ERR_CONFIG_INVALID: /);
    const post = await claude(root, "PostToolUse");
    expect(post.code).toBe(0);
    expect(JSON.parse(post.stdout).systemMessage).toMatch(/^hookyard: no hook ran: RUN_ERR_CONFIG_INVALID: /);
  });

  it("skips a community hook whose store bytes are gone, says so, and runs the others", async () => {
    const root = await fullWorkspace();
    await rm(join(root, ".hookyard", "store"), { recursive: true, force: true });
    const result = await claude(root, "PreToolUse", {
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/hookyard: error: .*"seen"/);
    expect(result.stderr).not.toMatch(noStack);
    expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    const post = await claude(root, "PostToolUse");
    expect(post).toMatchObject({ code: 0, stdout: "" });
  });

  it("denies where a hook that did not load would have run: a fresh clone before hookyard install", async () => {
    const root = await fullWorkspace();
    await rm(join(root, ".hookyard", "store"), { recursive: true, force: true });
    const result = await claude(root, "PreToolUse", { tool_name: "Read", tool_input: { file_path: "a" } });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(
        /^Blocked by hook "seen": hook "seen" could not be loaded \(run `hookyard install`\): /,
      ),
    });
    // Not a blockable point: the agent goes on.
    expect(await claude(root, "PostToolUse")).toMatchObject({ code: 0, stdout: "" });
  });

  it('lets the call through where hookyard.json gives the missing hook onError "open"', async () => {
    const root = await fullWorkspace({ hooks: { seen: { onError: "open" } } });
    await rm(join(root, ".hookyard", "store"), { recursive: true, force: true });
    const result = await claude(root, "PreToolUse", { tool_name: "Read", tool_input: { file_path: "a" } });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("deny");
    expect(result.stderr).toContain(
      'not in the store (seen): run `hookyard install`; skipped until then: "seen" (onError "open" in hookyard.json)',
    );
  });

  it("finds the workspace from the input's cwd, wherever it was started", async () => {
    const root = await fullWorkspace();
    const elsewhere = await tempDir();
    const input = inputFor("PreToolUse", {
      cwd: root,
      tool_name: "Bash",
      tool_input: { command: "rm -rf ~" },
    });
    const result = await exec(root, "PreToolUse", input, elsewhere);
    expect(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });
});
