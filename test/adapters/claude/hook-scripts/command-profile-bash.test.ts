import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentAfter, toolAfter, toolBefore, turnAfter } from "../../../helpers/ctx.js";
import { claudeHook, fixture, noBash, workspaceWith } from "./command-profile-helpers.js";

const bash = (script: string) => `bash ${fixture(script)}`;
const skipReason = noBash ? ` (skipped: ${noBash})` : "";

describe.skipIf(noBash !== undefined)(`bash hooks written for that agent run unchanged${skipReason}`, () => {
  it("sees that agent's stdin JSON, CLAUDE_PROJECT_DIR, and runs in the project folder", async () => {
    const { root, hooks } = await workspaceWith([
      claudeHook("recorder", bash("record_input.sh"), ["tool_before"], { env: { RECORD_TO: "record.json" } }),
    ]);
    await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "write_file", args: { path: "src/a.ts", content: "x" } }),
    );
    const record = JSON.parse(await readFile(join(root, "record.json"), "utf8"));
    expect(record).toEqual({
      input: {
        session_id: "s1",
        transcript_path: "",
        cwd: root,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(root, "src/a.ts"), content: "x" },
        tool_use_id: "c1",
      },
      project: root,
      pwd: root,
    });
  });

  it("exit 2 blocks a write under a protected folder, with stderr as the reason", async () => {
    const { root, hooks } = await workspaceWith([
      claudeHook("protect", bash("protect_paths.sh"), ["tool_before"], { matcher: "Write|Edit" }),
    ]);
    const blocked = await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "write_file", args: { path: "migrations/001.sql", content: "drop table" } }),
    );
    expect(blocked.blockedBy).toEqual({
      hook: "protect",
      reason: `Writing to ${root}/migrations/001.sql is not allowed: it is a protected path`,
    });
    const allowed = await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "write_file", args: { path: "src/001.sql", content: "select 1" } }),
    );
    expect(allowed.verdict).toBe("allow");
  });

  it("exit 1 with a valid JSON answer on stdout: the answer is used (the issue's rule), and a note says so", async () => {
    const { hooks, logger } = await workspaceWith([
      claudeHook("exit-one", bash("deny_with_exit_1.sh"), ["tool_before"]),
    ]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.blockedBy).toEqual({ hook: "exit-one", reason: "denied, then exited 1" });
    expect(outcome.warnings).toEqual([]);
    expect(logger.infos.join("\n")).toContain(
      "[exit-one] exited with code 1, but its stdout is a JSON answer",
    );
  });

  it("continue: false wins: it blocks a tool call, whatever else the answer says", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("stop", bash("stop_session.sh"), ["tool_before", "turn_after"]),
    ]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.blockedBy).toEqual({ hook: "stop", reason: "maintenance window: the agent must stop" });
  });

  it("continue: false at a stop ends the run: no other turn (its decision block is ignored), the reason is a notice", async () => {
    const { hooks } = await workspaceWith([claudeHook("stop", bash("stop_session.sh"), ["turn_after"])]);
    const outcome = await hooks.dispatch("turn_after", turnAfter());
    expect(outcome.continues).toEqual([]);
    expect(outcome.notices).toEqual([{ hook: "stop", text: "maintenance window: the agent must stop" }]);
  });

  it("additionalContext at SessionStart and PostToolUse goes to the model, built from CLAUDE_PROJECT_DIR", async () => {
    const { root, hooks } = await workspaceWith([
      claudeHook("context", bash("project_context.sh"), ["agent_before", "tool_after"]),
    ]);
    const start = await hooks.dispatch("agent_before", { sessionId: "s1", cwd: root, config: {}, depth: 0 });
    expect(start.injects).toEqual([{ hook: "context", text: `project dir: ${root}` }]);
    const after = await hooks.dispatch("tool_after", toolAfter());
    expect(after.injects).toEqual([{ hook: "context", text: `project dir: ${root}` }]);
  });

  it("additionalContext at SessionEnd, where nothing reaches a model, is dropped with a warning", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("context", bash("project_context.sh"), ["agent_after"]),
    ]);
    const outcome = await hooks.dispatch("agent_after", agentAfter());
    expect(outcome.injects).toEqual([]);
    expect(outcome.warnings).toMatchObject([{ hook: "context", code: "RUN_ERR_EFFECT_DROPPED" }]);
  });

  it("a hook that hangs is killed at its timeout; the call goes on (fail-open) within the bound", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("slow", bash("slow_hook.sh"), ["tool_before"], { timeoutMs: 400 }),
    ]);
    const started = Date.now();
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.warnings).toMatchObject([{ hook: "slow", code: "RUN_ERR_HOOK_TIMEOUT" }]);
  });

  it("a hook that hangs blocks at its timeout when onError is block", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("slow", bash("slow_hook.sh"), ["tool_before"], { timeoutMs: 400, onError: "block" }),
    ]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.reason).toContain("did not finish within 400 ms");
  });
});
