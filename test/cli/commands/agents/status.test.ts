import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hookyard } from "../../../helpers/cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";

/**
 * `hookyard status` for a healthy, a broken and a daemon-down workspace, through the real binary.
 * Each test has its own runtime dir, so a daemon one starts is this test's alone, and is stopped.
 */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

const guard = `export default { name: "guard", on: { tool_before(ctx) { if (String(ctx.args.command).includes("rm -rf")) return { block: "no" }; } } };`;

async function setUp(files: Record<string, string | object>) {
  const root = await workspace({ "hookyard.json": {}, ...files });
  const env = {
    XDG_RUNTIME_DIR: await tempDir(),
    HOOKYARD_EXEC_ROUTE: "daemon",
    HOOKYARD_DAEMON_IDLE_MS: "60000",
  };
  return { root, env, status: (...args: string[]) => hookyard(["status", ...args], { cwd: root, env }) };
}

function preToolUse(root: string, env: NodeJS.ProcessEnv) {
  const input = {
    session_id: "s1",
    transcript_path: join(root, "t.jsonl"),
    cwd: root,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
  };
  return hookyard(["exec", "--profile", "claude", "PreToolUse"], {
    cwd: root,
    env,
    input: JSON.stringify(input),
  });
}

describe("hookyard status", () => {
  it("a healthy workspace with its daemon down: every hook loaded, exit 0, says exec starts the daemon", async () => {
    const { status } = await setUp({ ".hookyard/hooks/guard.mjs": guard });
    const result = await status();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^daemon {5}not running \(the next `hookyard exec` starts it/m);
    expect(result.stdout).toMatch(/^ {2}guard {2,}loaded {2,}workspace {2,}tool_before$/m);
    expect(result.stdout).toContain("every hook is in force");
  });

  it("a broken workspace: the broken hook, why and the fix; a left-out one; exit 1", async () => {
    const { root, status } = await setUp({
      "hookyard.json": { hooks: { note: { onError: "open" } } },
      ".hookyard/hooks/guard.mjs": "export default { name: 'guard', on: {",
      ".hookyard/hooks/note.mjs": "export default { hello: 1 };",
    });
    const result = await status();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^ {2}guard +BROKEN +workspace +could not be loaded \\(fix ${join(root, ".hookyard/hooks/guard.mjs")}\\)`,
        "m",
      ),
    );
    expect(result.stdout).toMatch(/^ {2}note +LEFT OUT +workspace +could not be loaded \(onError "open"/m);
    expect(result.stdout).toContain("2 hook(s) not in force");
    const json = JSON.parse((await status("--json")).stdout);
    expect(json.daemon.running).toBe(false);
    expect(json.hooks.find((h: { name: string }) => h.name === "guard")).toMatchObject({ state: "broken" });
  });

  it("with the daemon up: its pid and socket, and what it has loaded", async () => {
    const { root, env, status } = await setUp({ ".hookyard/hooks/guard.mjs": guard });
    const answered = await preToolUse(root, env);
    expect(answered.code, answered.stderr).toBe(0);
    const result = await status();
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^daemon {5}up, pid \d+, since .*, socket .*\.sock, log .*\.log$/m);
    expect(result.stdout).toMatch(/^ {2}guard +loaded/m);
    const { daemon } = JSON.parse((await status("--json")).stdout);
    expect(daemon).toMatchObject({ running: true, root, pid: expect.any(Number) });
    started.push(daemon.pid);
    process.kill(daemon.pid, "SIGKILL");
    expect((await status()).stdout).toMatch(/^daemon {5}not running/m);
  });
});
