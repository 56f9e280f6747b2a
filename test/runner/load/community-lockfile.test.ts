import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../package/integrity.js";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { formatLockfile, lockFileName } from "../../../workspace/lockfile.js";
import { toolBefore } from "../../helpers/ctx.js";
import { installFixture, noticeHook } from "../../helpers/lock-fixture.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace } from "../../helpers/temp.js";

const loaded: Hooks[] = [];
afterEach(async () => {
  await Promise.all(loaded.splice(0).map((hooks) => hooks.close()));
});

async function load(root: string) {
  const logger = recordingLogger();
  const hooks = await loadHooks({ cwd: root, logger });
  loaded.push(hooks);
  return { hooks, logger };
}

const localHook = (name: string, priority = 100) => `import { defineHook } from "hookyard";
export default defineHook({
  name: ${JSON.stringify(name)},
  priority: ${priority},
  on: { tool_before: () => ({ notice: ${JSON.stringify(`${name} ran`)} }) },
});
`;

const notices = async (hooks: Hooks) =>
  (await hooks.dispatch("tool_before", toolBefore())).notices.map((n) => `${n.hook}: ${n.text}`);

/** The tool call was refused before any hook acted on it: by the stand-in of the hook that did not load. */
const refusedBy = async (hooks: Hooks) => {
  const outcome = await hooks.dispatch("tool_before", toolBefore());
  expect(outcome.notices).toEqual([]);
  return outcome.verdict === "block" ? outcome.blockedBy : undefined;
};

const listedAt = (hooks: Hooks, name: string) =>
  hooks
    .list()
    .find((chain) => chain.point === "tool_before")
    ?.hooks.find((hook) => hook.name === name);

/** Changes one byte of the file, keeping its length. */
async function flipByte(file: string, at: (text: string) => number): Promise<string> {
  const bytes = await readFile(file);
  const index = at(bytes.toString("latin1"));
  expect(index).toBeGreaterThanOrEqual(0);
  bytes[index] = (bytes[index] as number) ^ 0x01;
  await writeFile(file, bytes);
  return computeIntegrity(bytes);
}

describe("community hooks from hookyard.lock", () => {
  it("runs a sandboxed hook with its grants: docs/ is readable, a file outside is denied by name", async () => {
    const root = await workspace({ "docs/a.md": "alpha docs", "secret.txt": "top secret" });
    const { bundle } = await installFixture(root, [
      {
        name: "doc-reader",
        version: "2.1.0",
        source: `import { defineHook } from "hookyard";
export default defineHook({
  name: "doc-reader",
  on: {
    async tool_before(ctx, api) {
      const docs = await api.fs.readFile("docs/a.md");
      let outside;
      try { outside = await api.fs.readFile("secret.txt"); }
      catch (error) { outside = error.name + ": " + error.message; }
      return { inject: JSON.stringify({ docs, outside }) };
    },
  },
});
`,
        hookyard: { events: ["tool_before"], capabilities: { fs: { read: ["docs"] } } },
        grants: ["fs.read:docs"],
      },
    ]);
    const { hooks } = await load(root);
    expect(hooks.problems).toEqual([]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.runs.find((run) => run.hook === "doc-reader")).toMatchObject({
      origin: "community",
      trust: "sandboxed",
      engine: "sandbox",
      status: "ok",
    });
    expect(outcome.injects.map((i) => i.hook)).toEqual(["doc-reader"]);
    const seen = JSON.parse(outcome.injects[0]?.text ?? "{}") as { docs: string; outside: string };
    expect(seen.docs).toBe("alpha docs");
    expect(seen.outside).toBe("CapabilityDenied: needs fs.read:secret.txt");
    expect(listedAt(hooks, "doc-reader")).toMatchObject({
      origin: "community",
      trust: "sandboxed",
      version: "2.1.0",
      grants: ["fs.read:docs"],
      source: bundle["doc-reader"],
    });
  });

  it("a sandboxed hook that lets a CapabilityDenied escape fails with the grant command that would allow it", async () => {
    const root = await workspace({ "secret.txt": "top secret" });
    await installFixture(root, [
      {
        name: "peeker",
        source: `export default { name: "peeker", on: { async tool_before(ctx, api) { await api.fs.readFile("secret.txt"); } } };\n`,
        hookyard: { events: ["tool_before"], capabilities: { fs: { read: ["secret.txt"] } } },
        grants: [],
      },
    ]);
    const { hooks } = await load(root);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.runs.find((run) => run.hook === "peeker")?.status).toBe("error");
    expect(outcome.warnings.find((w) => w.hook === "peeker")).toMatchObject({
      code: "RUN_ERR_HOOK_THREW",
      message:
        "CapabilityDenied: needs fs.read:secret.txt; to allow it: hookyard grant peeker fs.read:secret.txt",
    });
  });

  it("refuses a hook whose bundle in the store has one byte changed; the other hooks still run", async () => {
    const root = await workspace({ ".hookyard/hooks/local.ts": localHook("local") });
    const { bundle, lock } = await installFixture(root, [
      { name: "alpha", source: noticeHook("alpha", '"alpha ran"'), hookyard: { events: ["tool_before"] } },
      { name: "beta", source: noticeHook("beta", '"beta ran"'), hookyard: { events: ["tool_before"] } },
    ]);
    const file = bundle.alpha as string;
    const found = await flipByte(file, (text) => text.indexOf("alpha ran"));
    const expected = lock.packages.alpha?.files["dist/hook.js"] as string;
    expect(found).not.toBe(expected);

    const { hooks, logger } = await load(root);
    expect(hooks.problems).toMatchObject([
      { name: "alpha", code: "RUN_ERR_STORE_MISMATCH", file, points: ["tool_before"] },
    ]);
    const message = hooks.problems[0]?.message ?? "";
    expect(message).toContain(file);
    expect(message).toContain(`expected ${expected}`);
    expect(message).toContain(`found ${found}`);
    expect(message).toContain("hookyard install");
    expect(message).toContain("hookyard verify");
    expect(logger.errors).toEqual([
      `RUN_ERR_STORE_MISMATCH: hook "alpha" (${file}) could not be loaded and blocks at tool_before until fixed (run \`hookyard install\`): ${message}`,
    ]);
    expect(await refusedBy(hooks)).toEqual({
      hook: "alpha",
      reason: `hook "alpha" could not be loaded (run \`hookyard install\`): ${message}`,
    });
    expect(listedAt(hooks, "alpha")).toMatchObject({
      engine: "broken",
      broken: expect.stringContaining(found),
    });
  });

  it('a hook that did not load and has onError "open" in hookyard.json is left out; the others run', async () => {
    const root = await workspace({
      ".hookyard/hooks/local.ts": localHook("local"),
      "hookyard.json": { hooks: { alpha: { onError: "open" } } },
    });
    const { bundle } = await installFixture(root, [
      { name: "alpha", source: noticeHook("alpha", '"alpha ran"'), hookyard: { events: ["tool_before"] } },
      { name: "beta", source: noticeHook("beta", '"beta ran"'), hookyard: { events: ["tool_before"] } },
    ]);
    await flipByte(bundle.alpha as string, (text) => text.indexOf("alpha ran"));
    const { hooks, logger } = await load(root);
    expect(logger.errors).toEqual([
      expect.stringMatching(
        /^RUN_ERR_STORE_MISMATCH: hook "alpha" .* was skipped \(run `hookyard install`\): /,
      ),
    ]);
    expect(await notices(hooks)).toEqual(["local: local ran", "beta: beta ran"]);
    expect(listedAt(hooks, "alpha")).toBeUndefined();
  });

  it("refuses a hook whose package.json was changed, even into a valid manifest", async () => {
    const root = await workspace();
    const { store, lock } = await installFixture(root, [
      { name: "alpha", source: noticeHook("alpha", '"alpha ran"'), hookyard: { events: ["tool_before"] } },
      { name: "beta", source: noticeHook("beta", '"beta ran"'), hookyard: { events: ["tool_before"] } },
    ]);
    const file = join(store.beta as string, "package.json");
    const manifest = JSON.parse(await readFile(file, "utf8")) as { hookyard: Record<string, unknown> };
    manifest.hookyard.priority = 1;
    await writeFile(file, JSON.stringify(manifest));

    const { hooks } = await load(root);
    expect(hooks.problems).toMatchObject([{ name: "beta", code: "RUN_ERR_STORE_MISMATCH", file }]);
    expect(hooks.problems[0]?.message).toContain(`expected ${lock.packages.beta?.files["package.json"]}`);
    expect(hooks.problems[0]?.message).toContain(`found ${computeIntegrity(await readFile(file))}`);
    expect((await refusedBy(hooks))?.hook).toBe("beta");
  });

  it("compiles the bytes it verified: a bundle swapped after loading does not run", async () => {
    const root = await workspace();
    const { bundle } = await installFixture(root, [
      { name: "alpha", source: noticeHook("alpha", '"alpha ran"'), hookyard: { events: ["tool_before"] } },
    ]);
    const { hooks } = await load(root);
    expect(hooks.problems).toEqual([]);
    // The sandbox compiles a hook on its first call: by then the file says something else.
    await writeFile(
      bundle.alpha as string,
      'export default { on: { tool_before: () => ({ notice: "swapped bytes ran" }) } };',
    );
    expect(await notices(hooks)).toEqual(["alpha: alpha ran"]);
  });

  it("never imports a trusted hook whose bundle does not match", async () => {
    const root = await workspace();
    const { bundle } = await installFixture(root, [
      {
        name: "trusted-one",
        source: noticeHook("trusted-one", '"trusted ran"'),
        hookyard: { events: ["tool_before"] },
        trust: "trusted",
      },
    ]);
    const marker = `hookyardTampered${process.pid}`;
    await writeFile(
      bundle["trusted-one"] as string,
      `globalThis.${marker} = true;\nexport default { on: { tool_before: () => ({ notice: "tampered" }) } };`,
    );
    const { hooks } = await load(root);
    expect(hooks.problems).toMatchObject([{ name: "trusted-one", code: "RUN_ERR_STORE_MISMATCH" }]);
    expect((globalThis as Record<string, unknown>)[marker]).toBeUndefined();
    expect(await notices(hooks)).toEqual([]);
  });

  it("runs a trusted hook in-process, and orders builtin, workspace and community hooks in one chain", async () => {
    const pidHook = (name: string) => noticeHook(name, '"pid:" + globalThis.process?.pid');
    const root = await workspace({
      "hookyard.json": { hooks: { "audit-log": { mode: "sync", priority: 20 } } },
      ".hookyard/hooks/local.ts": localHook("local", 20),
    });
    const { bundle } = await installFixture(root, [
      {
        name: "b-trusted",
        source: pidHook("b-trusted"),
        hookyard: { events: ["tool_before"], priority: 20 },
        trust: "trusted",
      },
      {
        name: "a-sandboxed",
        source: pidHook("a-sandboxed"),
        hookyard: { events: ["tool_before"], priority: 20 },
      },
      {
        name: "c-sandboxed",
        source: pidHook("c-sandboxed"),
        hookyard: { events: ["tool_before"], priority: 20 },
      },
      {
        name: "early",
        source: noticeHook("early", '"first"'),
        hookyard: { events: ["tool_before"], priority: 5 },
      },
    ]);
    const { hooks } = await load(root);
    expect(hooks.problems).toEqual([]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.runs.map((run) => [run.hook, run.origin, run.trust, run.engine])).toEqual([
      ["early", "community", "sandboxed", "sandbox"],
      ["audit-log", "builtin", "trusted", "inprocess"],
      ["local", "workspace", "trusted", "inprocess"],
      ["a-sandboxed", "community", "sandboxed", "sandbox"],
      ["b-trusted", "community", "trusted", "inprocess"],
      ["c-sandboxed", "community", "sandboxed", "sandbox"],
    ]);
    expect(outcome.notices.map((n) => `${n.hook}: ${n.text}`)).toEqual([
      "early: first",
      "local: local ran",
      "a-sandboxed: pid:undefined",
      `b-trusted: pid:${process.pid}`,
      "c-sandboxed: pid:undefined",
    ]);
    const trusted = listedAt(hooks, "b-trusted");
    expect(trusted).toMatchObject({
      origin: "community",
      trust: "trusted",
      engine: "inprocess",
      version: "1.0.0",
      priority: 20,
      source: bundle["b-trusted"],
    });
    expect(trusted).not.toHaveProperty("grants");
  });

  it.each([
    ["not JSON", "{ not json", "is not valid JSON"],
    [
      "a grant that climbs out of the workspace",
      JSON.stringify({
        lockfileVersion: 1,
        packages: {
          x: {
            version: "1.0.0",
            resolved: "http://127.0.0.1:9/x.tgz",
            integrity: `sha512-${"A".repeat(86)}==`,
            keyId: "k",
            signature: "s",
            trust: "sandbox",
            grants: ["fs.read:../etc"],
            requested: [],
            main: "dist/hook.js",
            files: {},
          },
        },
      }),
      "packages.x.grants.0",
    ],
  ])(
    "an invalid hookyard.lock (%s) is a problem, and the workspace hooks still run",
    async (_name, text, says) => {
      const root = await workspace({ ".hookyard/hooks/local.ts": localHook("local"), [lockFileName]: text });
      const { hooks, logger } = await load(root);
      const file = join(root, lockFileName);
      expect(hooks.problems).toMatchObject([
        { name: lockFileName, code: "RUN_ERR_LOCK_INVALID", file, message: expect.stringContaining(says) },
      ]);
      expect(hooks.problems[0]?.message).toContain("no community hook was loaded");
      expect(logger.errors[0]).toMatch(/^RUN_ERR_LOCK_INVALID: hook "hookyard.lock" /);
      // Which guards it pinned is unknown: every blockable point fails closed until the lock is fixed.
      expect((await refusedBy(hooks))?.hook).toBe(lockFileName);
      expect((await hooks.dispatch("tool_after", { ...toolBefore(), result: "" })).verdict).toBe("allow");
    },
  );

  it("a package missing from the store is refused with the advice to install; the others run", async () => {
    const root = await workspace();
    const { store } = await installFixture(root, [
      { name: "alpha", source: noticeHook("alpha", '"alpha ran"'), hookyard: { events: ["tool_before"] } },
      { name: "beta", source: noticeHook("beta", '"beta ran"'), hookyard: { events: ["tool_before"] } },
    ]);
    await rm(store.alpha as string, { recursive: true });
    const { hooks } = await load(root);
    expect(hooks.problems).toMatchObject([
      {
        name: "alpha",
        code: "RUN_ERR_NOT_INSTALLED",
        file: store.alpha,
        message: expect.stringContaining("run `hookyard install`"),
      },
    ]);
    // A fresh clone before `hookyard install`: the guard is not in the store, and the call is refused.
    const refusal = await refusedBy(hooks);
    expect(refusal).toMatchObject({
      hook: "alpha",
      reason: expect.stringContaining("run `hookyard install`"),
    });
  });

  it("refuses a lock entry that points a name at another package's bytes, or lists no hash for the bundle", async () => {
    const root = await workspace();
    const { lock } = await installFixture(root, [
      { name: "alpha", source: noticeHook("alpha", '"alpha ran"'), hookyard: { events: ["tool_before"] } },
      { name: "beta", source: noticeHook("beta", '"beta ran"'), hookyard: { events: ["tool_before"] } },
    ]);
    const alpha = lock.packages.alpha;
    const beta = lock.packages.beta;
    if (!alpha || !beta) throw new Error("fixture");
    const { "dist/hook.js": _bundle, ...withoutBundle } = beta.files;
    const edited = {
      lockfileVersion: 1 as const,
      packages: { gamma: alpha, beta: { ...beta, files: withoutBundle } },
    };
    await writeFile(join(root, lockFileName), formatLockfile(edited));

    const { hooks } = await load(root);
    expect(hooks.problems).toMatchObject([
      {
        name: "beta",
        code: "RUN_ERR_LOCK_INVALID",
        file: expect.stringMatching(/dist\/hook\.js$/),
        message: expect.stringContaining("lists no hash for dist/hook.js"),
      },
      {
        name: "gamma",
        code: "RUN_ERR_STORE_MISMATCH",
        file: expect.stringMatching(/package\.json$/),
        message: expect.stringContaining("its name is alpha"),
      },
    ]);
    expect((await refusedBy(hooks))?.hook).toBe("beta");
  });

  it("a community hook may not take the name of a workspace hook", async () => {
    const root = await workspace({ ".hookyard/hooks/alpha.ts": localHook("alpha") });
    const { bundle } = await installFixture(root, [
      {
        name: "alpha",
        source: noticeHook("alpha", '"community alpha ran"'),
        hookyard: { events: ["tool_before"] },
      },
    ]);
    const { hooks } = await load(root);
    expect(hooks.problems).toMatchObject([
      {
        name: "alpha",
        code: "RUN_ERR_HOOK_INVALID",
        file: bundle.alpha,
        message: `the name is already used by ${join(root, ".hookyard", "hooks", "alpha.ts")}`,
      },
    ]);
    expect(await refusedBy(hooks)).toMatchObject({
      hook: "alpha",
      reason: expect.stringContaining("uninstall one"),
    });
  });
});
