import { spawnSync } from "node:child_process";
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliResult, hookyard, repoRoot } from "../../../helpers/cli.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";
import { processWaitMs } from "../../../helpers/timeouts.js";
import { inputFor } from "../protocol/claude-profile-inputs.js";

/**
 * The exec route through the real bin (dist/: build first): a thin client that asks the
 * workspace's daemon over a unix socket, starts one when none answers, falls back to the chain
 * in its own process, and refuses a blockable event when neither answers. Every test has its own
 * runtime dir (XDG_RUNTIME_DIR), and every daemon a test started is killed after it.
 */

const guardHook = (word = "rm -rf") => `export default {
  name: "guard",
  on: {
    tool_before(ctx) {
      console.log("guard looked at", ctx.tool);
      if (ctx.tool === "bash" && ctx.args.command.includes(${JSON.stringify(word)})) return { block: ${JSON.stringify(`${word} is not allowed`)} };
    },
    turn_before(ctx) {
      if (/password/i.test(ctx.prompt)) return { block: "the prompt holds a password" };
    },
  },
};
`;

const runtimeDirs: string[] = [];

/** Every daemon a test started: the pids its logs name. */
async function daemonPids(runtime: string): Promise<number[]> {
  const dir = join(runtime, "hookyard");
  const names = await readdir(dir).catch(() => [] as string[]);
  const pids: number[] = [];
  for (const name of names.filter((n) => n.endsWith(".log"))) {
    const text = await readFile(join(dir, name), "utf8");
    for (const match of text.matchAll(/pid (\d+) serves/g)) pids.push(Number(match[1]));
  }
  return pids;
}

/** The daemons' pids once `count` of them listen: the first event starts one and does not wait for it. */
async function daemonsUp(runtime: string, count = 1): Promise<number[]> {
  let pids: number[] = [];
  await eventually(async () => {
    pids = await daemonPids(runtime);
    return pids.length >= count;
  });
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  for (const runtime of runtimeDirs.splice(0)) {
    for (const pid of await daemonPids(runtime)) if (alive(pid)) process.kill(pid, "SIGKILL");
  }
});

async function runtimeDir(): Promise<string> {
  const dir = await tempDir();
  runtimeDirs.push(dir);
  return dir;
}

interface Route {
  env: NodeJS.ProcessEnv;
  runtime: string;
}

async function daemonRoute(extra: NodeJS.ProcessEnv = {}): Promise<Route> {
  const runtime = await runtimeDir();
  return {
    runtime,
    env: {
      HOOKYARD_EXEC_ROUTE: "auto",
      XDG_RUNTIME_DIR: runtime,
      HOOKYARD_DAEMON_IDLE_MS: "30000",
      ...extra,
    },
  };
}

function exec(root: string, event: string, input: unknown, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return hookyard(["exec", "--profile", "claude", event], {
    cwd: root,
    input: typeof input === "string" ? input : JSON.stringify(input),
    env,
  });
}

const bash = (root: string, command: string) =>
  inputFor("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command } });

const denial = (reason: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: reason,
  },
});

/** The built status module: the socket's name hashes the daemon's built file, so the sources' copy would look elsewhere. */
async function statusModule(): Promise<typeof import("../../../../adapters/daemon/status.js")> {
  return import(join(repoRoot, "dist", "adapters", "daemon", "status.js"));
}

async function eventually(check: () => Promise<boolean> | boolean, ms = processWaitMs): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 100));
  }
  return false;
}

describe("hookyard exec through the workspace's daemon", () => {
  it("answers as the in-process route does, byte for byte, and the warm daemon answers the next events", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const route = await daemonRoute();
    const inProcess = { HOOKYARD_EXEC_ROUTE: "inprocess" };
    const cases: Array<[string, unknown]> = [
      ["PreToolUse", bash(root, "rm -rf ~")],
      ["PreToolUse", bash(root, "ls")],
      ["UserPromptSubmit", inputFor("UserPromptSubmit", { cwd: root, prompt: "my password is x" })],
      ["PostToolUse", "{ not json"],
      ["PreToolUse", "{ not json"],
    ];
    const first = await exec(root, "PreToolUse", bash(root, "rm -rf ~"), route.env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual(denial('Blocked by hook "guard": rm -rf is not allowed'));
    const [pid] = await daemonsUp(route.runtime);
    expect(pid).toBeGreaterThan(0);
    for (const [event, input] of cases) {
      const expected = await exec(root, event, input, inProcess);
      expect(await exec(root, event, input, route.env), `${event} ${JSON.stringify(input)}`).toEqual(
        expected,
      );
    }
    // The hook's console output reached that event's stderr, not stdout and not another event's.
    const ls = await exec(root, "PreToolUse", bash(root, "ls"), route.env);
    expect(ls).toEqual({ code: 0, stdout: "", stderr: "guard looked at bash\n" });
    // One daemon answered them all, and it says what it has loaded.
    expect(await daemonPids(route.runtime)).toEqual([pid]);
    const { daemonStatus } = await statusModule();
    const status = await daemonStatus(root, { env: route.env });
    expect(status).toMatchObject({ running: true, pid, root, problems: [] });
    const names = status.running
      ? status.hooks.flatMap((chain) =>
          (chain as { hooks: Array<{ name: string }> }).hooks.map((h) => h.name),
        )
      : [];
    expect(names).toContain("guard");
    expect(await daemonStatus(await tempDir(), { env: route.env })).toMatchObject({ running: false });
  });

  it("runs the command install-into writes, as the agent runs it, through the daemon", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const home = await tempDir();
    expect((await runCli(["install-into", "claude"], { cwd: root, env: { HOME: home } })).code).toBe(0);
    const settings = JSON.parse(await readFile(join(root, ".claude", "settings.json"), "utf8"));
    const command = settings.hooks.PreToolUse.at(-1).hooks[0].command as string;
    expect(command).not.toContain("--no-node-snapshot");
    const route = await daemonRoute();
    for (let i = 0; i < 2; i++) {
      const result = spawnSync("/bin/sh", ["-c", command], {
        cwd: root,
        input: JSON.stringify(bash(root, "rm -rf /")),
        env: { ...process.env, ...route.env },
      });
      expect(result.status, result.stderr.toString()).toBe(0);
      expect(JSON.parse(result.stdout.toString())).toEqual(
        denial('Blocked by hook "guard": rm -rf is not allowed'),
      );
    }
    expect(await daemonsUp(route.runtime)).toHaveLength(1);
  });

  it("lets one daemon serve a workspace: a second one is refused, and two execs starting at once share one", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const route = await daemonRoute();
    const results = await Promise.all(
      [1, 2, 3].map(() => exec(root, "PreToolUse", bash(root, "rm -rf ~"), route.env)),
    );
    for (const result of results) {
      expect(JSON.parse(result.stdout), result.stderr).toEqual(
        denial('Blocked by hook "guard": rm -rf is not allowed'),
      );
    }
    const pids = await daemonsUp(route.runtime);
    // Give the losers of the race their time to find the winner and stop.
    await new Promise((done) => setTimeout(done, 1500));
    expect(await daemonPids(route.runtime)).toEqual(pids);
    expect(pids).toHaveLength(1);
    // Started by hand beside it: it finds the socket answered and stops.
    const second = spawnSync(
      process.execPath,
      ["--no-node-snapshot", join(repoRoot, "dist", "cli", "daemon", "server.js"), root],
      { env: { ...process.env, ...route.env }, timeout: processWaitMs },
    );
    expect(second.status).toBe(0);
    expect(second.stderr.toString()).toContain(`another daemon serves ${root}`);
    expect(alive(pids[0] as number)).toBe(true);
  });

  it("survives a kill -9 of its daemon: the next PreToolUse is answered, a dangerous one still denied", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const route = await daemonRoute();
    expect((await exec(root, "PreToolUse", bash(root, "ls"), route.env)).code).toBe(0);
    const [pid] = await daemonsUp(route.runtime);
    // Warm: the next event is answered by it.
    expect((await exec(root, "PreToolUse", bash(root, "ls"), route.env)).stderr).toBe(
      "guard looked at bash\n",
    );
    process.kill(pid as number, "SIGKILL");
    await eventually(() => !alive(pid as number));
    // Its socket file is left behind; the next exec starts a daemon that takes it over.
    const after = await exec(root, "PreToolUse", bash(root, "rm -rf ~"), route.env);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual(denial('Blocked by hook "guard": rm -rf is not allowed'));
    const pids = await daemonsUp(route.runtime, 2);
    expect(pids).toHaveLength(2);
    expect(alive(pids[1] as number)).toBe(true);
    const warm = await exec(root, "PreToolUse", bash(root, "rm -rf ~"), route.env);
    expect(JSON.parse(warm.stdout)).toEqual(denial('Blocked by hook "guard": rm -rf is not allowed'));
  });

  it("falls back to the chain in its own process when the daemon cannot start, and says so", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const notADir = join(await runtimeDir(), "file");
    await writeFile(notADir, "");
    const result = await exec(root, "PreToolUse", bash(root, "rm -rf ~"), {
      HOOKYARD_EXEC_ROUTE: "auto",
      XDG_RUNTIME_DIR: notADir,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(denial('Blocked by hook "guard": rm -rf is not allowed'));
    expect(result.stderr).toMatch(
      /hookyard: warning: the hookyard daemon cannot start: .*answering in this process instead/,
    );
    expect(result.stderr).toContain("guard looked at bash");
  });

  it("refuses a blockable event when neither the daemon nor the exec process gives an answer", async () => {
    // A hook whose load ends the process takes the daemon down, and then the exec process.
    const exits = "process.exit(3);\nexport default { name: 'exits', on: { tool_before() {} } };\n";
    const root = await workspace({ ".hookyard/hooks/exits.mjs": exits });
    const route = await daemonRoute();
    const tool = await exec(root, "PreToolUse", bash(root, "ls"), route.env);
    expect(tool.code).toBe(0);
    const answer = JSON.parse(tool.stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toMatch(
      /^hookyard could not check this tool call, so it is refused: the hookyard daemon .*running its hooks in the exec process ended it \(exit code 3\)/,
    );
    const prompt = await exec(
      root,
      "UserPromptSubmit",
      inputFor("UserPromptSubmit", { cwd: root }),
      route.env,
    );
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain("hookyard could not check this prompt, so it is refused");
    // Where the agent does not wait on the answer, no refusal: it goes on.
    const post = await exec(root, "PostToolUse", inputFor("PostToolUse", { cwd: root }), route.env);
    expect(post.stdout).toBe("");
    expect(post.code).toBe(3);

    // HOOKYARD_EXEC_ROUTE=daemon runs no hook in the exec process: a daemon that cannot start is a refusal.
    const sane = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const notADir = join(await runtimeDir(), "file");
    await writeFile(notADir, "");
    const strict = await exec(sane, "PreToolUse", bash(sane, "ls"), {
      HOOKYARD_EXEC_ROUTE: "daemon",
      XDG_RUNTIME_DIR: notADir,
    });
    expect(JSON.parse(strict.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /the hookyard daemon cannot start: .*HOOKYARD_EXEC_ROUTE=daemon/,
    );
  });

  it("picks up a changed hook file in the warm daemon", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const route = await daemonRoute();
    expect((await exec(root, "PreToolUse", bash(root, "git push --force"), route.env)).stdout).toBe("");
    const [pid] = await daemonsUp(route.runtime);
    await exec(root, "PreToolUse", bash(root, "ls"), route.env);
    await writeFile(join(root, ".hookyard", "hooks", "guard.mjs"), guardHook("git push --force"));
    const picked = await eventually(async () => {
      const result = await exec(root, "PreToolUse", bash(root, "git push --force"), route.env);
      return result.stdout.includes("deny");
    });
    expect(picked).toBe(true);
    expect(await daemonPids(route.runtime)).toEqual([pid]);
  });

  it("exits after its idle time, and removes its socket", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const route = await daemonRoute({ HOOKYARD_DAEMON_IDLE_MS: "700" });
    expect((await exec(root, "PreToolUse", bash(root, "ls"), route.env)).code).toBe(0);
    const [pid] = await daemonsUp(route.runtime);
    expect(await eventually(() => !alive(pid as number))).toBe(true);
    const files = await readdir(join(route.runtime, "hookyard"));
    expect(files.filter((name) => name.endsWith(".sock"))).toEqual([]);
    const log = await readFile(
      join(route.runtime, "hookyard", files.find((n) => n.endsWith(".log")) as string),
      "utf8",
    );
    expect(log).toContain("idle for 700 ms: stopping");
    expect((await stat(join(route.runtime, "hookyard"))).mode & 0o777).toBe(0o700);
  });

  it("refuses a request for another workspace, and a header over its cap", async () => {
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guardHook() });
    const route = await daemonRoute();
    expect((await exec(root, "PreToolUse", bash(root, "ls"), route.env)).code).toBe(0);
    await daemonsUp(route.runtime);
    const { daemonStatus } = await statusModule();
    const status = await daemonStatus(root, { env: route.env });
    if (!status.running) throw new Error("no daemon");
    expect((await stat(status.socket)).mode & 0o777).toBe(0o600);
    const raw = (payload: string) =>
      new Promise<string>((done) => {
        let text = "";
        const socket = connect(status.socket, () => socket.write(payload));
        socket.on("data", (chunk) => (text += chunk.toString()));
        socket.on("close", () => done(text));
        socket.on("error", () => done(text));
      });
    const other = await raw(
      `${JSON.stringify({ v: 1, type: "event", root: "/elsewhere", profile: "claude", event: "PreToolUse", bytes: 2 })}\n{}`,
    );
    expect(JSON.parse(other)).toMatchObject({ type: "error", code: "DAEMON_WRONG_ROOT" });
    const huge = await raw(`{"v":1,"pad":"${"x".repeat(70 * 1024)}`);
    expect(JSON.parse(huge)).toMatchObject({ type: "error", code: "DAEMON_TOO_LARGE" });
    const big = await raw(
      `${JSON.stringify({ v: 1, type: "event", root, profile: "claude", event: "PreToolUse", bytes: 9 * 1024 * 1024 })}\n`,
    );
    expect(JSON.parse(big)).toMatchObject({ type: "error", code: "DAEMON_TOO_LARGE" });
  });
});

describe("the workspace hook cache", () => {
  it("keeps each hook file's bundle with the hash of every input, and reuses it while they are unchanged", async () => {
    const root = await workspace({
      ".hookyard/hooks/guard.ts": `import { word } from "./lib/word.js";\nexport default { name: "guard", on: { tool_before(ctx) { if (String(ctx.args.command).includes(word)) return { block: "no" }; } } };\n`,
      ".hookyard/hooks/lib/word.ts": `export const word = "rm";\n`,
    });
    const env = { HOOKYARD_EXEC_ROUTE: "inprocess" };
    expect((await exec(root, "PreToolUse", bash(root, "rm x"), env)).stdout).toContain("deny");
    const entryFile = join(root, ".hookyard", "cache", "hooks", "guard.ts.json");
    const entry = JSON.parse(await readFile(entryFile, "utf8"));
    expect(entry.inputs.map((input: { path: string }) => input.path).sort()).toEqual([
      join(root, ".hookyard", "hooks", "guard.ts"),
      join(root, ".hookyard", "hooks", "lib", "word.ts"),
    ]);
    const before = await stat(entryFile);
    // A hit rewrites nothing (and, test/cli/startup.test.ts shows, loads no esbuild).
    expect((await exec(root, "PreToolUse", bash(root, "rm y"), env)).stdout).toContain("deny");
    expect((await stat(entryFile)).mtimeMs).toBe(before.mtimeMs);
    expect((await stat(join(root, ".hookyard", "cache", "hooks", entry.bundle))).isFile()).toBe(true);
    // An input that changed (the imported file, not the hook file) is a new bundle.
    await writeFile(join(root, ".hookyard", "hooks", "lib", "word.ts"), `export const word = "curl";\n`);
    expect((await exec(root, "PreToolUse", bash(root, "rm z"), env)).stdout).toBe("");
    expect((await exec(root, "PreToolUse", bash(root, "curl z"), env)).stdout).toContain("deny");
    expect(JSON.parse(await readFile(entryFile, "utf8")).bundle).not.toBe(entry.bundle);
    await rm(entryFile);
    expect((await exec(root, "PreToolUse", bash(root, "curl z"), env)).stdout).toContain("deny");
  });
});
