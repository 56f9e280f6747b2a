import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SandboxedHook, sandboxedHook } from "hookyard/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The hook runs as users run it: bundled as `hookyard pack` bundles it, in the real sandbox, with
// the one grant it asks for (rewrite:tool_before.args.timeout) and this package's matcher, unless
// a test says otherwise.
const source = fileURLToPath(new URL("../src/hook.ts", import.meta.url));
let root: string;
let byDefault: SandboxedHook;
let configured: SandboxedHook;
let defaultAboveMax: SandboxedHook;
let misconfigured: SandboxedHook;
let ungrantedForEveryTool: SandboxedHook;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "bash-timeout-"));
  const grants = ["rewrite:tool_before.args.timeout"];
  [byDefault, configured, defaultAboveMax, misconfigured, ungrantedForEveryTool] = await Promise.all([
    sandboxedHook(source, { root, grants }),
    sandboxedHook(source, { root, grants, config: { seconds: 30, max: 120 } }),
    sandboxedHook(source, { root, grants, config: { seconds: 300, max: 120 } }),
    sandboxedHook(source, { root, grants, config: { seconds: "90", max: 0, limit: 5 } }),
    // No grant, and no matcher: a user's hookyard.json may drop it.
    sandboxedHook(source, { root, settings: {} }),
  ]);
});

afterAll(async () => {
  await Promise.all(
    [byDefault, configured, defaultAboveMax, misconfigured, ungrantedForEveryTool].map((hook) =>
      hook?.close(),
    ),
  );
  await rm(root, { recursive: true, force: true });
});

const call = async (hook: SandboxedHook, args: Record<string, unknown>, tool = "bash") => {
  const outcome = await hook.run("tool_before", { tool, args });
  expect(outcome.verdict).toBe("allow");
  return outcome;
};

describe("a bash call without a timeout", () => {
  it("gets 60 seconds by default, its command untouched", async () => {
    const outcome = await call(byDefault, { command: "npm test" });
    expect(outcome.ctx.args).toEqual({ command: "npm test", timeout: 60 });
    expect(outcome.runs[0]?.effects).toEqual(["rewrite"]);
    // The least grant is enough: nothing it changes falls outside it.
    expect(outcome.warnings).toEqual([]);
  });

  it("gets config.seconds when set", async () => {
    const outcome = await call(configured, { command: "sleep 0.2 && make" });
    expect(outcome.ctx.args).toEqual({ command: "sleep 0.2 && make", timeout: 30 });
  });

  it("gets config.max when config.seconds is above it", async () => {
    const outcome = await call(defaultAboveMax, { command: "make" });
    expect(outcome.ctx.args).toEqual({ command: "make", timeout: 120 });
  });

  it("counts a null timeout as none", async () => {
    const outcome = await call(byDefault, { command: "ls", timeout: null });
    expect(outcome.ctx.args).toEqual({ command: "ls", timeout: 60 });
  });
});

describe("a bash call with a timeout", () => {
  it("is left alone", async () => {
    for (const timeout of [5, 600, 3600]) {
      const outcome = await call(byDefault, { command: "npm ci", timeout });
      expect(outcome.ctx.args).toEqual({ command: "npm ci", timeout });
      expect(outcome.runs[0]?.effects).toEqual([]);
    }
  });

  it("is lowered to config.max when above it, and left alone at or below it", async () => {
    expect((await call(configured, { command: "npm ci", timeout: 600 })).ctx.args.timeout).toBe(120);
    expect((await call(configured, { command: "npm ci", timeout: 120 })).ctx.args.timeout).toBe(120);
    const below = await call(configured, { command: "npm ci", timeout: 90 });
    expect(below.ctx.args.timeout).toBe(90);
    expect(below.runs[0]?.effects).toEqual([]);
  });

  it("is left for the bash tool to refuse when it is not a number", async () => {
    const outcome = await call(configured, { command: "npm ci", timeout: "7200" });
    expect(outcome.ctx.args).toEqual({ command: "npm ci", timeout: "7200" });
  });
});

describe("other tools", () => {
  it("never reach it: the matcher is bash only", async () => {
    const args = { path: "notes/todo.md", content: "- [ ] add tests" };
    const outcome = await call(byDefault, args, "write_file");
    expect(outcome.runs).toEqual([]);
    expect(outcome.ctx.args).toEqual({ path: "notes/todo.md", content: "- [ ] add tests" });
  });

  it("are left alone by the hook itself when a user drops the matcher", async () => {
    const outcome = await call(ungrantedForEveryTool, { path: "src/app.ts" }, "read_file");
    expect(outcome.runs.map((r) => [r.status, r.effects])).toEqual([["ok", []]]);
    // Not even a rewrite that the missing grant would drop.
    expect(outcome.warnings).toEqual([]);
    expect(outcome.ctx.args).toEqual({ path: "src/app.ts" });
  });
});

describe("the rewrite:tool_before.args.timeout grant", () => {
  it("without it, the timeout is not added and the user is told which grant it needs", async () => {
    const outcome = await call(ungrantedForEveryTool, { command: "npm test" });
    expect(outcome.ctx.args).toEqual({ command: "npm test" });
    expect(outcome.warnings.map((w) => [w.code, w.message])).toEqual([
      [
        "RUN_ERR_EFFECT_DROPPED",
        'returned a rewrite of tool_before.args.timeout, but it has no "rewrite" grant (it would need rewrite:tool_before.args.timeout); dropped',
      ],
    ]);
  });

  it("is the ceiling: the package requests nothing else", async () => {
    const { readFile } = await import("node:fs/promises");
    const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.hookyard.capabilities).toEqual({ rewrite: ["tool_before.args.timeout"] });
  });
});

describe("invalid config", () => {
  it("falls back to the defaults, so bash calls still get a timeout, and names each problem once", async () => {
    expect((await call(misconfigured, { command: "make" })).ctx.args.timeout).toBe(60);
    expect((await call(misconfigured, { command: "make", timeout: 3000 })).ctx.args.timeout).toBe(3000);
    expect(misconfigured.logs).toEqual([
      "[bash-timeout] config.limit is not a setting (seconds, max)",
      "[bash-timeout] config.seconds must be a number of seconds above 0, at most 3600; using 60",
      "[bash-timeout] config.max must be a number of seconds above 0, at most 3600; no maximum is applied",
    ]);
  });
});
