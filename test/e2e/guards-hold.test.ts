import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookyard } from "../helpers/cli.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { startRegistry, type TestRegistry } from "../registry/helpers.js";

/**
 * Issue 14's table, through the real binary: each way a guard used to vanish while `rm -rf` went
 * through. A community guard from a real registry (and a workspace guard) must hold in `run` and in
 * `exec --profile claude`: the victim folder survives, the answer names the hook and the fix.
 */
const guardSource = `import { defineHook } from "hookyard";
export default defineHook({
  name: "rm-guard",
  on: {
    tool_before(ctx) {
      if (/rm\\s+-rf/.test(String(ctx.args.command))) return { block: "rm-guard: no rm -rf here" };
    },
  },
});
`;

const session = {
  prompt: "clean up",
  responses: [
    { toolCalls: [{ name: "bash", args: { command: "rm -rf victim" } }] },
    { toolCalls: [{ name: "bash", args: { command: "echo fine > fine.txt" } }] },
    { content: "done" },
  ],
};

let registry: TestRegistry;
let home: string;
/** A project with the guard installed, its hookyard.json and hookyard.lock committed. */
let project: string;
const env = () => ({
  HOME: home,
  HOOKYARD_CONFIG: join(home, "config.json"),
  HOOKYARD_TOKEN: registry.admin,
});

/** Kept for the whole file (tempDir's folders go after each test). */
let shared: string;

beforeAll(async () => {
  shared = await mkdtemp(join(tmpdir(), "hookyard-guards-"));
  const folder = async (name: string) => {
    await mkdir(join(shared, name));
    return join(shared, name);
  };
  registry = await startRegistry({ root: await folder("registry") });
  await mkdir(join(shared, "runtime"), { mode: 0o700 });
  home = await folder("home");
  const authors = await folder("authors");
  expect((await hookyard(["new", "rm-guard"], { cwd: authors, env: env() })).code).toBe(0);
  const dir = join(authors, "rm-guard");
  await writeFile(join(dir, "src", "hook.ts"), guardSource);
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  manifest.hookyard = { ...manifest.hookyard, events: ["tool_before"], effects: ["block"] };
  await writeFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  const published = await hookyard(["publish", "--registry", registry.url], { cwd: dir, env: env() });
  expect(published.code, published.stderr).toBe(0);
  project = await folder("project");
  await writeFiles(project, { "hookyard.json": { registry: registry.url } });
  const installed = await hookyard(["install", "rm-guard", "--yes", "--registry", registry.url], {
    cwd: project,
    env: env(),
  });
  expect(installed.code, installed.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const pid of daemons) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  await registry?.close();
  await rm(shared, { recursive: true, force: true });
});

/** A fresh clone of the project: hookyard.json and hookyard.lock, the session, a victim folder. */
async function clone(withStore: boolean): Promise<string> {
  const ws = await tempDir();
  for (const file of ["hookyard.json", "hookyard.lock"]) await cp(join(project, file), join(ws, file));
  if (withStore)
    await cp(join(project, ".hookyard", "store"), join(ws, ".hookyard", "store"), { recursive: true });
  await writeFiles(ws, { "session.json": session, "victim/keep.txt": "precious\n" });
  return ws;
}

const run = (ws: string) => hookyard(["run", "--model", "scripted:session.json"], { cwd: ws, env: env() });

/** Daemons the daemon route started, killed after the file. */
const daemons: number[] = [];

/** The agent's PreToolUse through exec: in the exec process, or through the workspace's daemon. */
async function preToolUse(ws: string, route: "inprocess" | "daemon") {
  const input = {
    session_id: "s1",
    transcript_path: join(ws, "t.jsonl"),
    cwd: ws,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf victim" },
  };
  const routeEnv = { ...env(), HOOKYARD_EXEC_ROUTE: route, XDG_RUNTIME_DIR: join(shared, "runtime") };
  const answer = await hookyard(["exec", "--profile", "claude", "PreToolUse"], {
    cwd: ws,
    env: routeEnv,
    input: JSON.stringify(input),
  });
  if (route === "daemon") {
    const status = await hookyard(["status", "--json"], { cwd: ws, env: routeEnv });
    const { daemon } = JSON.parse(status.stdout);
    expect(daemon.running, "the daemon answered").toBe(true);
    daemons.push(daemon.pid);
  }
  return answer;
}

/** The guard held: the tool did not run, and both routes name the hook and the fix. */
async function expectHeld(ws: string, hook: string, fix: RegExp): Promise<void> {
  const ran = await run(ws);
  expect(existsSync(join(ws, "victim", "keep.txt"))).toBe(true);
  expect(ran.code).toBe(1);
  expect(ran.stdout).toContain(`hook "${hook}" could not be loaded`);
  expect(ran.stdout).toMatch(fix);
  expect(ran.stderr).toMatch(/could not be loaded .*`hookyard list` shows why/);
  for (const route of ["inprocess", "daemon"] as const) {
    const answer = await preToolUse(ws, route);
    expect(answer.code).toBe(0);
    const output = JSON.parse(answer.stdout).hookSpecificOutput;
    expect(output.permissionDecision, route).toBe("deny");
    expect(output.permissionDecisionReason).toContain(`hook "${hook}" could not be loaded`);
    expect(output.permissionDecisionReason).toMatch(fix);
  }
}

describe("guards that hold (issue 14): a guard that cannot load blocks, it never vanishes", () => {
  it("a fresh clone before `hookyard install`: blocked, naming the fix; after the install the guard itself runs", async () => {
    const ws = await clone(false);
    await expectHeld(ws, "rm-guard", /run `hookyard install`/);
    const installed = await hookyard(["install"], { cwd: ws, env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    const ran = await run(ws);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("rm-guard: no rm -rf here");
    expect(existsSync(join(ws, "victim", "keep.txt"))).toBe(true);
    // Everything else runs normally again.
    expect(await readFile(join(ws, "fine.txt"), "utf8")).toBe("fine\n");
  });

  it("one byte of the guard's bundle changed in the store", async () => {
    const ws = await clone(true);
    const store = join(ws, ".hookyard", "store");
    const [folder] = await readdir(store);
    const bundle = join(store, folder as string, "dist", "hook.js");
    const bytes = await readFile(bundle);
    bytes[20] = (bytes[20] ?? 0) ^ 1;
    await writeFile(bundle, bytes);
    await expectHeld(ws, "rm-guard", /run `hookyard install`/);
  });

  it("a workspace guard file with a syntax error", async () => {
    const ws = await clone(true);
    await mkdir(join(ws, ".hookyard", "hooks"), { recursive: true });
    await writeFile(
      join(ws, ".hookyard", "hooks", "local-guard.ts"),
      "export default { name: 'local-guard', on: {",
    );
    // The community guard is in force too, but the broken one stands first and says why.
    await expectHeld(ws, "local-guard", /fix .*local-guard\.ts/);
  });

  it('a hook override with a wrong value ("enabled": "no") does not switch the guard off', async () => {
    const ws = await clone(true);
    const config = JSON.parse(await readFile(join(ws, "hookyard.json"), "utf8"));
    await writeFile(
      join(ws, "hookyard.json"),
      JSON.stringify({ ...config, hooks: { "rm-guard": { enabled: "no" } } }),
    );
    await expectHeld(ws, "rm-guard", /fix .*hookyard\.json\): hooks\.rm-guard\.enabled/);
  });

  it('onError "open" lets the run go on, and says so once', async () => {
    const ws = await clone(false);
    const config = JSON.parse(await readFile(join(ws, "hookyard.json"), "utf8"));
    await writeFile(
      join(ws, "hookyard.json"),
      JSON.stringify({ ...config, hooks: { "rm-guard": { onError: "open" } } }),
    );
    const ran = await run(ws);
    expect(existsSync(join(ws, "victim"))).toBe(false);
    expect(ran.code).toBe(1);
    expect(ran.stderr.match(/not in the store \(rm-guard\).*skipped until then: "rm-guard"/g)).toHaveLength(
      1,
    );
    // The transcript says it once, at session start.
    expect(ran.stdout.match(/could not be loaded: "rm-guard" \(left out\)/g)).toHaveLength(1);
  });
});
