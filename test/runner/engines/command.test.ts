import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConfiguredHook } from "../../../runner/compile-hook.js";
import { toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir, writeFiles } from "../../helpers/temp.js";
import { dispatcherFor, waitUntilGone } from "./helpers.js";

/** A node one-liner that reads the whole of stdin, then runs `body` with it in `input`. */
const withStdin = (body: string) =>
  `let input = ""; process.stdin.on("data", (d) => (input += d)).on("end", () => { ${body} });`;

async function runCommand(command: string | string[], settings: Partial<ConfiguredHook> = {}) {
  const root = await tempDir();
  const logger = recordingLogger();
  const hook = { name: "guard", engine: "command", events: ["tool_before"], command, ...settings };
  const dispatcher = dispatcherFor([hook as ConfiguredHook], root, logger);
  const ctx = toolBefore({ args: { command: "rm -rf /" } });
  const outcome = await dispatcher.dispatch("tool_before", ctx);
  return { root, logger, outcome, ctx };
}

describe("command engine", () => {
  it("runs a string command through sh -c", async () => {
    const { outcome } = await runCommand(`printf '{"inject":"%s"}' "$(echo from-the-shell | tr a-z A-Z)"`);
    expect(outcome.injects).toEqual([{ hook: "guard", text: "FROM-THE-SHELL" }]);
  });

  it("runs an array command without a shell, so metacharacters arrive literally", async () => {
    const script = "process.stdout.write(JSON.stringify({ notice: process.argv[1] }))";
    const { root, outcome } = await runCommand(["node", "-e", script, "$(touch pwned)"]);
    expect(outcome.notices).toEqual([{ hook: "guard", text: "$(touch pwned)" }]);
    expect(existsSync(join(root, "pwned"))).toBe(false);
  });

  it("hands the hook { point, hook, ctx } as JSON on stdin", async () => {
    const echo = withStdin("process.stdout.write(JSON.stringify({ notice: input }))");
    const { outcome, ctx } = await runCommand(["node", "-e", echo]);
    const received = JSON.parse(outcome.notices[0]?.text ?? "null");
    expect(received).toEqual({ point: "tool_before", hook: "guard", ctx });
  });

  it("tells the hook its point and the project dir in the environment, and runs it there", async () => {
    const { root, outcome } = await runCommand(
      `printf '{"notice":"%s|%s|%s"}' "$HOOKYARD_POINT" "$HOOKYARD_PROJECT_DIR" "$(pwd)"`,
    );
    expect(outcome.notices[0]?.text).toBe(`tool_before|${root}|${root}`);
  });

  it("blocks on exit 2 with stderr as the reason", async () => {
    const { outcome, logger } = await runCommand("echo 'rm -rf is not allowed here' >&2; exit 2");
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy).toEqual({ hook: "guard", reason: "rm -rf is not allowed here" });
    expect(logger.errors).toEqual([]);
  });

  it("adopts a JSON decision printed on stdout with exit 0", async () => {
    const blocked = await runCommand(`echo '{"block":"no deleting"}'`);
    expect(blocked.outcome.verdict).toBe("block");
    expect(blocked.outcome.blockedBy).toEqual({ hook: "guard", reason: "no deleting" });

    const injected = await runCommand(`echo '{"inject":"remember the backups"}'`);
    expect(injected.outcome.verdict).toBe("allow");
    expect(injected.outcome.injects).toEqual([{ hook: "guard", text: "remember the backups" }]);
  });

  it("rewrites the tool's args from a JSON decision", async () => {
    const { outcome, ctx } = await runCommand(`echo '{"rewrite":{"args":{"command":"rm -ri ./tmp"}}}'`);
    expect(outcome.verdict).toBe("allow");
    expect(ctx.args).toEqual({ command: "rm -ri ./tmp" });
    expect(outcome.runs[0]?.effects).toEqual(["rewrite"]);
  });

  it("ignores plain text on stdout: no decision and no error", async () => {
    const { outcome, logger } = await runCommand("echo 'looked at it, fine'");
    expect(outcome.verdict).toBe("allow");
    expect(outcome.injects).toEqual([]);
    expect(outcome.notices).toEqual([]);
    expect(outcome.runs).toMatchObject([{ hook: "guard", status: "ok", effects: [] }]);
    expect(logger.errors).toEqual([]);
  });

  it("survives a flood of output: 50 MB on stdout is cut off, not kept, and the hook still counts as run", async () => {
    const { outcome, logger } = await runCommand("head -c 50000000 /dev/zero | tr '\\0' x");
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toMatchObject([{ hook: "guard", status: "ok" }]);
    expect(logger.errors).toEqual([]);
  });

  it("keeps a block reason from a stderr flood short enough for a model to read", async () => {
    const { outcome } = await runCommand("head -c 5000000 /dev/zero | tr '\\0' x >&2; exit 2");
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.reason.length).toBeLessThanOrEqual(10_000);
    expect(outcome.blockedBy?.reason).toMatch(/^x+/);
  });

  it("treats stdout that starts with { but is not JSON as a hook error", async () => {
    const { outcome, logger } = await runCommand(`echo '{"block": oops'`);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toMatchObject([{ hook: "guard", status: "error" }]);
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toMatch(/"guard".*tool_before.*not valid JSON/);
  });

  it("fails open on any other exit code, logging the hook, the point and stderr", async () => {
    const { outcome, logger, ctx } = await runCommand("echo 'database is locked' >&2; exit 3");
    expect(outcome.verdict).toBe("allow");
    expect(ctx.args).toEqual({ command: "rm -rf /" });
    expect(logger.errors).toHaveLength(1);
    expect(logger.errors[0]).toContain('hook "guard"');
    expect(logger.errors[0]).toContain("tool_before");
    expect(logger.errors[0]).toContain("exited with code 3: database is locked");
  });

  it("blocks on a failure when its onError is block", async () => {
    const { outcome } = await runCommand("exit 3", { onError: "block" });
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("guard");
    expect(outcome.blockedBy?.reason).toContain("exited with code 3");
  });

  it.each([
    ["an array", ["hookyard-no-such-command"]],
    ["a string", "hookyard-no-such-command --flag"],
  ])("reports a missing command given as %s as a hook error naming it", async (_, command) => {
    const { outcome, logger } = await runCommand(command);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toMatchObject([{ hook: "guard", status: "error" }]);
    expect(logger.errors[0]).toMatch(/"guard".*tool_before/);
    expect(logger.errors[0]).toContain("hookyard-no-such-command");
    expect(logger.errors[0]).toContain("not found");
  });

  it("kills a hanging command and the children it started at timeoutMs", async () => {
    const started = Date.now();
    const { root, outcome, logger } = await runCommand(
      "echo $$ > hook.pid; sleep 30 & echo $! > child.pid; sleep 30",
      { timeoutMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toMatchObject([{ hook: "guard", status: "timeout" }]);
    expect(logger.errors[0]).toMatch(/"guard".*tool_before timed out/);

    const hookPid = Number(await readFile(join(root, "hook.pid"), "utf8"));
    const childPid = Number(await readFile(join(root, "child.pid"), "utf8"));
    expect(hookPid).toBeGreaterThan(0);
    expect(childPid).toBeGreaterThan(0);
    expect(await waitUntilGone(hookPid)).toBe(true);
    expect(await waitUntilGone(childPid)).toBe(true);
  });

  it("says how to fix a script that is not executable", async () => {
    const root = await tempDir();
    await writeFiles(root, { "hook.sh": "#!/bin/sh\nexit 0\n" });
    const logger = recordingLogger();
    const hook = {
      name: "guard",
      engine: "command",
      events: ["tool_before"],
      command: [join(root, "hook.sh")],
    };
    const outcome = await dispatcherFor([hook as ConfiguredHook], root, logger).dispatch(
      "tool_before",
      toolBefore(),
    );
    expect(outcome.runs).toMatchObject([{ status: "error" }]);
    expect(logger.errors[0]).toMatch(/hook\.sh is not executable \(chmod \+x it/);
  });
});
