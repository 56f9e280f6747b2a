import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, utimes } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Point } from "../../../core/events.js";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir, writeFiles } from "../../helpers/temp.js";

const loaded: Hooks[] = [];
afterEach(async () => {
  await Promise.all(loaded.splice(0).map((hooks) => hooks.close()));
});

/** Lays out a workspace from `{ path: contents }` and loads its hooks with a recording logger. */
async function workspace(files: Record<string, string | object> = {}) {
  const root = await tempDir();
  await writeFiles(root, files);
  const logger = recordingLogger();
  const hooks = await loadHooks({ cwd: root, logger });
  loaded.push(hooks);
  return { root, hooks, logger };
}

/** A hook file that injects `text` at tool_before; `settings` is spliced into the definition. */
const injectingHook = (name: string, text = name, settings = "") => `
import { defineHook } from "hookyard";
export default defineHook({
  name: "${name}",${settings}
  on: { tool_before: () => ({ inject: ${JSON.stringify(text)} }) },
});
`;

const names = (hooks: Hooks, point: Point) =>
  hooks
    .list()
    .find((chain) => chain.point === point)
    ?.hooks.map((h) => h.name);

const listed = (hooks: Hooks, point: Point, name: string) =>
  hooks
    .list()
    .find((chain) => chain.point === point)
    ?.hooks.find((h) => h.name === name);

const auditLines = async (root: string) =>
  (await readFile(join(root, ".hookyard", "logs", "audit.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("loadHooks: where hooks come from", () => {
  it("lists the builtin audit-log as a background hook at the tool points", async () => {
    const { hooks } = await workspace();
    for (const point of ["tool_before", "tool_after", "tool_error"] as const) {
      expect(listed(hooks, point, "audit-log")).toMatchObject({
        origin: "builtin",
        trust: "trusted",
        mode: "background",
        source: "builtin",
      });
    }
    expect(names(hooks, "turn_before")).toEqual([]);
    expect(hooks.problems).toEqual([]);
  });

  it("lets a TypeScript file in .hookyard/hooks replace the builtin of the same name", async () => {
    const file = join(".hookyard", "hooks", "audit-log.ts");
    const { root, hooks } = await workspace({
      [file]: `
import { defineHook } from "hookyard";
import { recordingLogger } from "../../helpers/logger.js";
import { toolBefore } from "../../helpers/ctx.js";
import { tempDir, writeFiles } from "../../helpers/temp.js";

interface ShellArgs {
  command?: string;
}

export default defineHook({
  name: "audit-log",
  on: {
    tool_before(ctx: { args: ShellArgs }): { inject: string } {
      return { inject: \`workspace audit saw \${ctx.args.command}\` };
    },
  },
});
`,
    });
    expect(listed(hooks, "tool_before", "audit-log")).toMatchObject({
      origin: "workspace",
      mode: "sync",
      source: join(root, file),
    });
    expect(names(hooks, "tool_after")).toEqual([]);

    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls -la" } }));
    await hooks.drain();
    expect(outcome.injects).toEqual([{ hook: "audit-log", text: "workspace audit saw ls -la" }]);
    expect(existsSync(join(root, ".hookyard", "logs", "audit.jsonl"))).toBe(false);
  });

  it("loads .mjs and .js hook files and runs them in name order", async () => {
    const { hooks } = await workspace({
      ".hookyard/hooks/shout.mjs": injectingHook("shout", "SHOUT"),
      ".hookyard/hooks/whisper.js": `export default { name: "whisper", on: { tool_before: () => ({ inject: "psst" }) } };`,
    });
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.injects).toEqual([
      { hook: "shout", text: "SHOUT" },
      { hook: "whisper", text: "psst" },
    ]);
  });

  it("reports a file with a syntax error and a file that exports no hook; both fail closed where a hook can block", async () => {
    const { root, hooks, logger } = await workspace({
      ".hookyard/hooks/broken.ts": `import { defineHook } from "hookyard";\nexport default defineHook({ name: "broken", on: {`,
      ".hookyard/hooks/not-a-hook.mjs": `export default { hello: "world" };`,
      ".hookyard/hooks/fine.mjs": injectingHook("fine"),
    });
    const broken = join(root, ".hookyard/hooks/broken.ts");
    expect(hooks.problems).toMatchObject([
      { name: "broken", code: "RUN_ERR_HOOK_LOAD", file: broken, message: expect.stringContaining("line 2") },
      {
        name: "not-a-hook",
        code: "RUN_ERR_HOOK_INVALID",
        file: join(root, ".hookyard/hooks/not-a-hook.mjs"),
        message: expect.stringContaining("not a valid hook definition"),
      },
    ]);
    expect(logger.errors.join("\n")).toMatch(
      /RUN_ERR_HOOK_LOAD: hook "broken" \(.*broken\.ts\) could not be loaded and blocks at turn_before, tool_before until fixed/,
    );
    expect(logger.errors.join("\n")).toMatch(
      /RUN_ERR_HOOK_INVALID: hook "not-a-hook" \(.*not-a-hook\.mjs\) could not/,
    );
    expect(names(hooks, "tool_before")).toEqual(["broken", "not-a-hook", "fine", "audit-log"]);
    expect(names(hooks, "tool_after")).toEqual(["audit-log"]);

    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("broken");
    expect(outcome.blockedBy?.reason).toContain(`line 2`);
    expect(outcome.blockedBy?.reason).toContain(`fix ${broken}`);
    expect(outcome.injects).toEqual([]);
    expect((await hooks.dispatch("tool_after", { ...toolBefore(), result: "" })).verdict).toBe("allow");
  });

  it('runs the rest when hookyard.json gives the hooks that did not load onError "open"', async () => {
    const { hooks } = await workspace({
      "hookyard.json": { hooks: { broken: { onError: "open" }, "not-a-hook": { onError: "open" } } },
      ".hookyard/hooks/broken.ts": `export default { name: "broken", on: {`,
      ".hookyard/hooks/not-a-hook.mjs": `export default { hello: "world" };`,
      ".hookyard/hooks/fine.mjs": injectingHook("fine"),
    });
    expect(hooks.problems.map((p) => p.name)).toEqual(["broken", "not-a-hook"]);
    expect(names(hooks, "tool_before")).toEqual(["fine", "audit-log"]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.injects).toEqual([{ hook: "fine", text: "fine" }]);
  });

  it("reports an invalid entry in hookyard.json; it blocks at its own points, the other points run", async () => {
    const { hooks } = await workspace({
      "hookyard.json": {
        rules: [
          { name: "lint", engine: "python", events: ["tool_before"] },
          { name: "note", engine: "prompt", events: ["tool_before"], text: "Be careful." },
        ],
      },
    });
    expect(hooks.problems.map((p) => p.name)).toEqual(["lint"]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.blockedBy?.hook).toBe("lint");
    expect(outcome.injects).toEqual([]);
    expect(names(hooks, "turn_before") ?? []).toEqual([]);
  });

  it("keeps one bundle per hook file in the cache, removing older ones once they are a minute old", async () => {
    const { root } = await workspace({
      ".hookyard/hooks/a.ts": injectingHook("a-ts", "one"),
      ".hookyard/hooks/a.mjs": injectingHook("a-mjs"),
    });
    const cache = join(root, ".hookyard", "cache", "hooks");
    // Beside each bundle, its entry: the files it was made from, with their hashes.
    const bundles = async () => (await readdir(cache)).filter((name) => name.endsWith(".mjs")).sort();
    expect((await readdir(cache)).filter((name) => name.endsWith(".json")).sort()).toEqual([
      "a.mjs.json",
      "a.ts.json",
    ]);
    const first = await bundles();
    expect(first).toEqual([
      expect.stringMatching(/^a\.mjs\.[0-9a-f]{16}\.mjs$/),
      expect.stringMatching(/^a\.ts\.[0-9a-f]{16}\.mjs$/),
    ]);

    await writeFiles(root, { ".hookyard/hooks/a.ts": injectingHook("a-ts", "two") });
    const old = new Date(Date.now() - 120_000);
    for (const name of first) await utimes(join(cache, name), old, old);
    const reloaded = await loadHooks({ cwd: root, logger: recordingLogger() });
    loaded.push(reloaded);
    const after = await bundles();
    expect(after).toHaveLength(2);
    expect(after).toContain(first[0]);
    expect(after).not.toContain(first[1]);
    const outcome = await reloaded.dispatch("tool_before", toolBefore());
    expect(outcome.injects.map((i) => i.text)).toEqual(["a-mjs", "two"]);
  });

  it("finds the workspace root from a subdirectory", async () => {
    const root = await tempDir();
    await writeFiles(root, {
      "hookyard.json": { rules: [{ name: "note", engine: "prompt", events: ["tool_before"], text: "hi" }] },
    });
    const deep = join(root, "src", "lib", "deep");
    await mkdir(deep, { recursive: true });
    const hooks = await loadHooks({ cwd: deep, logger: recordingLogger() });
    loaded.push(hooks);
    expect(hooks.root).toBe(root);
    expect(names(hooks, "tool_before")).toEqual(["note", "audit-log"]);
  });
});

describe("loadHooks: overrides in hookyard.json", () => {
  it("change a builtin's priority, matcher and onError", async () => {
    const { root, hooks } = await workspace({
      "hookyard.json": {
        hooks: { "audit-log": { priority: 7, onError: "block", matcher: { tool: "^bash$" } } },
      },
    });
    expect(listed(hooks, "tool_before", "audit-log")).toMatchObject({
      origin: "builtin",
      priority: 7,
      onError: "block",
      matcher: { tool: "^bash$" },
    });

    await hooks.dispatch("tool_before", toolBefore({ tool: "bash", callId: "c1" }));
    await hooks.dispatch("tool_before", toolBefore({ tool: "read_file", callId: "c2" }));
    await hooks.drain();
    expect((await auditLines(root)).map((line) => line.callId)).toEqual(["c1"]);
  });

  it("remove a builtin with enabled: false", async () => {
    const { root, hooks } = await workspace({
      "hookyard.json": { hooks: { "audit-log": { enabled: false } } },
    });
    expect(hooks.list().flatMap((chain) => chain.hooks)).toEqual([]);
    await hooks.dispatch("tool_before", toolBefore());
    await hooks.drain();
    expect(existsSync(join(root, ".hookyard", "logs", "audit.jsonl"))).toBe(false);
  });

  it("skip an observer whose override is invalid, rather than run it as nobody configured it", async () => {
    const { hooks, logger } = await workspace({
      "hookyard.json": { hooks: { "audit-log": { enabled: "no" } } },
    });
    // audit-log runs in the background: it never blocked anything, so nothing stands in for it.
    expect(hooks.list().flatMap((chain) => chain.hooks)).toEqual([]);
    expect(hooks.problems).toEqual([
      expect.objectContaining({ name: "audit-log", code: "RUN_ERR_CONFIG_INVALID" }),
    ]);
    expect(logger.errors.join("\n")).toMatch(
      /hook "audit-log" \(.*hookyard\.json\) was skipped \(fix .*\): hooks\.audit-log\.enabled/,
    );
  });

  it("report a misspelt field in a hookyard.json entry instead of silently ignoring it", async () => {
    const { hooks } = await workspace({
      "hookyard.json": {
        rules: [{ name: "slow", engine: "command", events: ["tool_before"], command: "true", timeout: 5 }],
      },
    });
    expect(hooks.problems).toEqual([
      expect.objectContaining({ name: "slow", message: expect.stringContaining('"timeout"') }),
    ]);
    expect(names(hooks, "tool_before")).toEqual(["slow", "audit-log"]);
    expect(listed(hooks, "tool_before", "slow")).toMatchObject({ engine: "broken" });
  });

  it('a guard whose override is invalid (enabled: "no") is not switched off: it blocks at its points', async () => {
    const { hooks } = await workspace({
      "hookyard.json": { hooks: { guard: { enabled: "no" } } },
      ".hookyard/hooks/guard.mjs": `export default { name: "guard", on: { tool_after: () => {}, tool_before: () => ({ block: "guarded" }) } };`,
    });
    const outcome = await hooks.dispatch("tool_before", toolBefore({ tool: "read_file" }));
    expect(outcome.blockedBy).toEqual({
      hook: "guard",
      reason: expect.stringMatching(
        /^hook "guard" could not be loaded \(fix .*hookyard\.json\): hooks\.guard\.enabled: /,
      ),
    });
    expect(names(hooks, "turn_before") ?? []).toEqual([]);
  });

  it("change a workspace hook's priority and matcher", async () => {
    const { hooks } = await workspace({
      "hookyard.json": {
        hooks: { "b-note": { priority: 1 }, guard: { matcher: { tool: "^bash$" } } },
      },
      ".hookyard/hooks/a-note.mjs": injectingHook("a-note"),
      ".hookyard/hooks/b-note.mjs": injectingHook("b-note"),
      ".hookyard/hooks/guard.mjs": `export default { name: "guard", on: { tool_before: () => ({ block: "guarded" }) } };`,
    });
    expect(names(hooks, "tool_before")).toEqual(["b-note", "a-note", "guard", "audit-log"]);

    const read = await hooks.dispatch("tool_before", toolBefore({ tool: "read_file" }));
    expect(read.verdict).toBe("allow");
    expect(read.injects.map((i) => i.hook)).toEqual(["b-note", "a-note"]);

    const bash = await hooks.dispatch("tool_before", toolBefore({ tool: "bash" }));
    expect(bash.verdict).toBe("block");
    expect(bash.blockedBy).toEqual({ hook: "guard", reason: "guarded" });
  });

  it("make a failing workspace hook block with onError, or remove it with enabled: false", async () => {
    const flaky = `export default { name: "flaky", on: { tool_before() { throw new Error("flaky broke"); } } };`;
    const closed = await workspace({
      "hookyard.json": { hooks: { flaky: { onError: "block" } } },
      ".hookyard/hooks/flaky.mjs": flaky,
    });
    const blocked = await closed.hooks.dispatch("tool_before", toolBefore());
    expect(blocked.verdict).toBe("block");
    expect(blocked.blockedBy?.hook).toBe("flaky");
    expect(closed.logger.errors.join("\n")).toMatch(/"flaky".*tool_before failed: flaky broke/);

    const disabled = await workspace({
      "hookyard.json": { hooks: { flaky: { enabled: false } } },
      ".hookyard/hooks/flaky.mjs": flaky,
    });
    expect(names(disabled.hooks, "tool_before")).toEqual(["audit-log"]);
    const allowed = await disabled.hooks.dispatch("tool_before", toolBefore());
    expect(allowed.verdict).toBe("allow");
    expect(disabled.logger.errors).toEqual([]);
  });

  it("leave list() in priority order, ties builtin first, then workspace files and hookyard.json entries by name", async () => {
    const { hooks } = await workspace({
      "hookyard.json": {
        hooks: { "audit-log": { mode: "sync" } },
        rules: [
          { name: "beta", engine: "prompt", events: ["tool_before"], text: "beta" },
          { name: "zulu", engine: "prompt", events: ["tool_before"], text: "zulu", priority: 50 },
        ],
      },
      ".hookyard/hooks/gamma.ts": injectingHook("gamma"),
      ".hookyard/hooks/alpha.mjs": injectingHook("alpha"),
      ".hookyard/hooks/aaa.mjs": injectingHook("aaa"),
    });
    expect(names(hooks, "tool_before")).toEqual(["zulu", "audit-log", "aaa", "alpha", "beta", "gamma"]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.runs.map((run) => run.hook)).toEqual([
      "zulu",
      "audit-log",
      "aaa",
      "alpha",
      "beta",
      "gamma",
    ]);
  });
});

describe("loadHooks: the builtin audit log", () => {
  it("writes one JSON line per tool call, with the verdict and who blocked, and per result", async () => {
    const { root, hooks } = await workspace({
      ".hookyard/hooks/no-rm.mjs": `export default {
        name: "no-rm",
        on: { tool_before: (ctx) => (String(ctx.args.command).startsWith("rm ") ? { block: "no rm" } : undefined) },
      };`,
    });
    const call = (callId: string, command: string) => toolBefore({ callId, args: { command } });
    await hooks.dispatch("tool_before", call("c1", "ls"));
    await hooks.dispatch("tool_after", { ...call("c1", "ls"), result: "README.md\n" });
    await hooks.dispatch("tool_before", call("c2", "rm -rf /"));
    await hooks.dispatch("tool_before", call("c3", "cat missing"));
    await hooks.dispatch("tool_error", { ...call("c3", "cat missing"), error: "no such file" });
    await hooks.drain();

    const lines = await auditLines(root);
    expect(lines).toEqual([
      expect.objectContaining({ point: "tool_before", callId: "c1", tool: "bash", verdict: "allow" }),
      expect.objectContaining({ point: "tool_after", callId: "c1", result: "README.md\n" }),
      expect.objectContaining({
        point: "tool_before",
        callId: "c2",
        args: { command: "rm -rf /" },
        verdict: "block",
        decidedBy: "no-rm",
        reason: "no rm",
      }),
      expect.objectContaining({ point: "tool_before", callId: "c3", verdict: "allow" }),
      expect.objectContaining({ point: "tool_error", callId: "c3", error: "no such file" }),
    ]);
    expect(lines[0]).not.toHaveProperty("decidedBy");
    for (const line of lines) expect(line).toMatchObject({ sessionId: "s1", time: expect.any(String) });
  });
});

describe("loadHooks: dispatch", () => {
  it("refuses a ctx that does not match the point's schema", async () => {
    const { hooks } = await workspace();
    const withoutArgs = { sessionId: "session-1", tool: "bash", callId: "call-1" };
    await expect(hooks.dispatch("tool_before", withoutArgs as never)).rejects.toMatchObject({
      code: "RUN_ERR_BAD_CTX",
      message: expect.stringContaining("args"),
    });
  });
});

describe("a broken workspace layout", () => {
  it("a file where .hookyard/hooks should be a directory is a RUN_ERR_HOOK_LOAD naming it", async () => {
    const root = await tempDir();
    await writeFiles(root, { ".hookyard/hooks": "not a directory" });
    await expect(loadHooks({ cwd: root, logger: recordingLogger() })).rejects.toMatchObject({
      code: "RUN_ERR_HOOK_LOAD",
      message: expect.stringContaining(join(root, ".hookyard", "hooks")),
    });
  });
});

describe("a hook file that throws something unprintable while it loads", () => {
  it("is reported, fails closed, and the other hooks still load", async () => {
    const { hooks, logger } = await workspace({
      ".hookyard/hooks/a-bad.mjs": "throw Object.create(null);",
      ".hookyard/hooks/b-good.mjs":
        'export default { name: "good", on: { tool_before: () => ({ notice: "hi" }) } };',
    });
    expect(hooks.problems).toMatchObject([{ name: "a-bad", code: "RUN_ERR_HOOK_LOAD" }]);
    expect(logger.errors).toEqual([
      expect.stringMatching(/hook "a-bad" \(.*\) could not be loaded and blocks/),
    ]);
    expect(names(hooks, "tool_before")).toEqual(["a-bad", "good", "audit-log"]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.blockedBy?.reason).toContain("(a thrown value that cannot be shown as text)");
  });

  describe("loadHooks: telling the user", () => {
    it("warns about a top-level field of hookyard.json it does not know, and still loads", async () => {
      const { hooks, logger } = await workspace({ "hookyard.json": { rule: [], hooks: {} } });
      expect(logger.warnings).toEqual([
        expect.stringMatching(/hookyard\.json: unknown field "rule" is ignored/),
      ]);
      expect(hooks.problems).toEqual([]);
    });

    it("does not call an override orphaned when its hook was skipped as invalid", async () => {
      const { logger } = await workspace({
        "hookyard.json": {
          hooks: { lint: { priority: 5 } },
          rules: [{ name: "lint", engine: "command", events: ["tool_before"] }],
        },
      });
      expect(logger.errors).toEqual([
        expect.stringMatching(
          /hook "lint" .* blocks at tool_before until fixed \(fix .*\): rules\[0\]\.command/,
        ),
      ]);
      expect(logger.warnings).toEqual([]);
    });

    it("names the hook file, not its cached bundle, when an import cannot be found", async () => {
      const { hooks } = await workspace({
        ".hookyard/hooks/needs-dep.mjs":
          'import pad from "left-pad-not-installed"; export default { name: "needs-dep", on: { tool_before() {} } };',
      });
      expect(hooks.problems).toEqual([
        expect.objectContaining({
          name: "needs-dep",
          code: "RUN_ERR_HOOK_LOAD",
          message: expect.stringContaining("needs-dep.mjs"),
        }),
      ]);
      expect(hooks.problems[0]?.message).not.toContain(".hookyard/cache");
    });
  });
});
