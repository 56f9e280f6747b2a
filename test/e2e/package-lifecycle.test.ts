import { readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { integrityHex } from "../../package/integrity.js";
import { snapshot } from "../cli/commands/packages/install/fixtures.js";
import { hookyard } from "../helpers/cli.js";
import { spawnPausedCli } from "../helpers/paused-install.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { startRegistry, type TestRegistry } from "../registry/helpers.js";

/**
 * Issue 6's acceptance, end to end through the real `hookyard` binary against a real registry on
 * port 0: two packages made with `new`, packed and published, installed one sandboxed and one
 * trusted next to a workspace hook, run by a scripted agent; then each way it must refuse.
 */

const docsReader = `import { defineHook } from "hookyard";

export default defineHook({
  name: "docs-reader",
  on: {
    async tool_before(ctx, api) {
      const guide = await api.fs.readFile("docs/guide.md");
      let secret: string;
      try {
        secret = await api.fs.readFile("secret.txt");
      } catch (error) {
        secret = "refused: " + (error as Error).message;
      }
      return { notice: "docs-reader read [" + guide.trim() + "]; secret.txt " + secret };
    },
  },
});
`;

const toolTagger = `import { defineHook } from "hookyard";

export default defineHook({
  name: "tool-tagger",
  on: {
    tool_before(ctx) {
      // Only a hook running in hookyard's own process can see its environment.
      const env = (globalThis as { process?: { env: Record<string, string> } }).process?.env;
      return { notice: "tool-tagger in-process, marker " + env?.E2E_MARK };
    },
  },
});
`;

const workspaceHook = `import { defineHook } from "hookyard";

export default defineHook({
  name: "ws-note",
  priority: 30,
  matcher: { tool: "^read_file$" },
  on: { tool_before: () => ({ notice: "ws-note ran" }) },
});
`;

const session = {
  prompt: "read the guide",
  responses: [
    { toolCalls: [{ name: "read_file", args: { path: "docs/guide.md" } }] },
    { toolCalls: [{ name: "list_dir", args: { path: "docs" } }] },
    { content: "done" },
  ],
};

async function setHookyardField(
  dir: string,
  version: string,
  hookyard: Record<string, unknown>,
): Promise<void> {
  const file = join(dir, "package.json");
  const manifest = JSON.parse(await readFile(file, "utf8"));
  await writeFile(file, JSON.stringify({ ...manifest, version, hookyard }, null, 2));
}

const docsReaderField = (capabilities: Record<string, unknown>) => ({
  main: "dist/hook.js",
  events: ["tool_before"],
  priority: 20,
  matcher: { tool: "^read_file$" },
  capabilities,
  effects: ["notice"],
});

const toolTaggerField = {
  main: "dist/hook.js",
  events: ["tool_before"],
  priority: 40,
  matcher: { tool: "^read_file$" },
  capabilities: {},
  effects: ["notice"],
};

interface Hookevent {
  type: string;
  point: string;
  hook: string;
  trust: string;
  effect: string;
  text?: string;
}

function hookEvents(stdout: string): Hookevent[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Hookevent)
    .filter((event) => event.type === "hook" && event.point === "tool_before");
}

async function storeFolder(ws: string, name: string): Promise<string> {
  const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
  return join(ws, ".hookyard", "store", integrityHex(lock.packages[name].integrity) as string);
}

/** Files in the workspace other than the run's own logs and state, which a run may write. */
async function workspaceFiles(ws: string): Promise<Record<string, string>> {
  const all = await snapshot(ws);
  return Object.fromEntries(
    Object.entries(all).filter(([path]) => !/^\.hookyard\/(logs|state|cache)\//.test(path)),
  );
}

describe("the package lifecycle, end to end", () => {
  it("new, pack, publish, install sandboxed and trusted, run a mixed chain; then every refusal", {
    timeout: 240_000,
  }, async () => {
    const registry = await startRegistry();
    const home = await tempDir();
    const env = { HOME: home, HOOKYARD_CONFIG: join(home, "config.json"), HOOKYARD_TOKEN: registry.admin };
    const run = (cwd: string, ...args: string[]) => hookyard(args, { cwd, env });
    const authors = await tempDir();

    // Two packages, written with `new`, given real code, packed and published.
    for (const name of ["docs-reader", "tool-tagger"]) {
      const made = await run(authors, "new", name);
      expect(made.code, made.stderr).toBe(0);
    }
    const readerDir = join(authors, "docs-reader");
    const taggerDir = join(authors, "tool-tagger");
    await writeFile(join(readerDir, "src", "hook.ts"), docsReader);
    await setHookyardField(readerDir, "0.1.0", docsReaderField({ fs: { read: ["."] } }));
    await writeFile(join(taggerDir, "src", "hook.ts"), toolTagger);
    await setHookyardField(taggerDir, "0.1.0", toolTaggerField);
    for (const dir of [readerDir, taggerDir]) {
      const published = await run(dir, "publish", "--registry", registry.url);
      expect(published.code, published.stderr).toBe(0);
      expect(`${published.stdout}${published.stderr}`).not.toContain(registry.admin);
    }

    // A workspace with one of each trust level.
    const ws = await tempDir();
    await writeFiles(ws, {
      "docs/guide.md": "Use small commits.\n",
      "secret.txt": "canary-7f3a\n",
      ".hookyard/hooks/ws-note.ts": workspaceHook,
      "session.json": session,
    });
    const sandboxed = await run(
      ws,
      "install",
      "docs-reader",
      "--sandbox",
      "--grant",
      "fs.read:docs",
      "--yes",
      "--registry",
      registry.url,
    );
    expect(sandboxed.code, sandboxed.stderr).toBe(0);
    expect(sandboxed.stdout).toContain("not granted: reads any file in the workspace");
    const trusted = await run(ws, "install", "tool-tagger", "--trust", "--registry", registry.url);
    expect(trusted.code, trusted.stderr).toBe(0);

    const agent = await hookyard(["run", "--model", "scripted:session.json", "--json"], {
      cwd: ws,
      env: { ...env, E2E_MARK: "marker-41" },
    });
    expect(agent.code, agent.stderr).toBe(0);
    const events = hookEvents(agent.stdout);
    // The mixed chain ran in priority order: community sandboxed 20, workspace 30, community trusted 40.
    expect(events.map((e) => [e.hook, e.trust])).toEqual([
      ["docs-reader", "sandboxed"],
      ["ws-note", "trusted"],
      ["tool-tagger", "trusted"],
    ]);
    const reader = events[0]?.text ?? "";
    expect(reader).toContain("docs-reader read [Use small commits.]");
    expect(reader).toContain("refused:");
    expect(reader).toContain("fs.read:secret.txt");
    expect(agent.stdout).not.toContain("canary-7f3a");
    expect(events[2]?.text).toBe("tool-tagger in-process, marker marker-41");
    const audit = (await readFile(join(ws, ".hookyard", "logs", "audit.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { point: string; tool: string });
    expect(audit.filter((line) => line.point === "tool_before").map((line) => line.tool)).toEqual([
      "read_file",
      "list_dir",
    ]);

    // One byte changed in the store: that hook is refused at run, and stands in where it would have
    // run: every tool call is refused, naming it and the fix; the run exits 1.
    const readerStore = await storeFolder(ws, "docs-reader");
    const bundle = join(readerStore, "dist", "hook.js");
    const original = await readFile(bundle);
    const changed = Buffer.from(original);
    changed[10] = (changed[10] ?? 0) ^ 1;
    await writeFile(bundle, changed);
    const tampered = await hookyard(["run", "--model", "scripted:session.json", "--json"], { cwd: ws, env });
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("RUN_ERR_STORE_MISMATCH");
    expect(tampered.stderr).toContain(bundle);
    expect(tampered.stderr).toMatch(/expected sha512-\S+ \(from hookyard\.lock\), found sha512-/);
    const refused = hookEvents(tampered.stdout);
    // Each of the two tool calls: the stand-in's failure, then the block it causes; no other hook ran.
    expect(refused.map((e) => [e.hook, e.effect])).toEqual([
      ["docs-reader", "error"],
      ["docs-reader", "block"],
      ["docs-reader", "error"],
      ["docs-reader", "block"],
    ]);
    expect(refused[1]?.text).toMatch(/could not be loaded \(run `hookyard install`\): /);
    expect((await run(ws, "verify")).code).toBe(3);
    const restored = await run(ws, "install");
    expect(restored.code, restored.stderr).toBe(0);
    expect(await readFile(bundle)).toEqual(original);
    expect((await run(ws, "verify")).code).toBe(0);

    // The registry's blob tampered: a fresh install from the lock refuses, workspace unchanged.
    await rm(join(ws, ".hookyard", "store"), { recursive: true });
    const blob = await registryBlob(registry, await lockIntegrity(ws, "docs-reader"));
    const blobBytes = await readFile(blob);
    const bad = Buffer.from(blobBytes);
    bad[bad.length - 20] = (bad[bad.length - 20] ?? 0) ^ 1;
    await writeFile(blob, bad);
    let before = await workspaceFiles(ws);
    const refusedBlob = await run(ws, "install");
    expect(refusedBlob.code).toBe(3);
    expect(refusedBlob.stderr).toContain("CLI_ERR_INTEGRITY");
    expect(await workspaceFiles(ws)).toEqual(before);
    await writeFile(blob, blobBytes);
    expect((await run(ws, "install")).code).toBe(0);

    // A new version asking for a new capability: update --yes refuses it, the old one stays.
    await setHookyardField(
      readerDir,
      "0.1.1",
      docsReaderField({ fs: { read: ["."] }, net: ["api.example.com:443"] }),
    );
    const republished = await run(readerDir, "publish", "--registry", registry.url);
    expect(republished.code, republished.stderr).toBe(0);
    expect(republished.stdout).toContain("docs-reader@0.1.1");
    before = await workspaceFiles(ws);
    const refusedUpdate = await run(ws, "update", "--yes");
    expect(refusedUpdate.code, refusedUpdate.stdout + refusedUpdate.stderr).toBe(3);
    expect(refusedUpdate.stderr).toContain("CLI_ERR_CAPABILITIES_CHANGED");
    expect(refusedUpdate.stderr).toContain("connects to api.example.com:443");
    expect(await workspaceFiles(ws)).toEqual(before);

    // Packing twice gives the same integrity, whatever the files' times.
    const first = JSON.parse((await run(taggerDir, "pack", "--json")).stdout);
    await utimes(join(taggerDir, "src", "hook.ts"), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const second = JSON.parse((await run(taggerDir, "pack", "--json")).stdout);
    expect(second.integrity).toBe(first.integrity);

    // Ctrl-C during an install: no half-written lockfile, no store entry.
    await run(ws, "uninstall", "tool-tagger");
    before = await workspaceFiles(ws);
    const paused = spawnPausedCli(["install", "tool-tagger", "--trust", "--registry", registry.url], {
      cwd: ws,
      env,
    });
    await paused.reached;
    // The store entry is complete at this point, and the lock not yet written.
    paused.child.kill("SIGINT");
    const interrupted = await paused.exited;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain("CLI_ERR_INTERRUPTED");
    expect(await workspaceFiles(ws)).toEqual(before);
    expect((await readdir(ws, { recursive: true })).filter((f) => f.includes(".tmp"))).toEqual([]);

    // The registry's key changed (the operator lost it): install refuses until the key is re-pinned.
    const port = Number(new URL(registry.url).port);
    await registry.close();
    await rm(join(registry.dataDir, "keys"), { recursive: true, force: true });
    const restarted = await startRegistry({ root: registry.root, dataDir: registry.dataDir, port });
    await setHookyardField(readerDir, "0.3.0", docsReaderField({ fs: { read: ["."] } }));
    expect((await run(readerDir, "publish", "--registry", restarted.url)).code).toBe(0);
    before = await workspaceFiles(ws);
    const refusedKey = await run(
      ws,
      "install",
      "docs-reader@0.3.0",
      "--grant",
      "fs.read:docs",
      "--yes",
      "--registry",
      restarted.url,
    );
    expect(refusedKey.code).toBe(3);
    expect(refusedKey.stderr).toContain("CLI_ERR_KEY_CHANGED");
    expect(await workspaceFiles(ws)).toEqual(before);
  });
});

async function lockIntegrity(ws: string, name: string): Promise<string> {
  return JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8")).packages[name].integrity;
}

async function registryBlob(registry: TestRegistry, integrity: string): Promise<string> {
  const blobs = join(registry.dataDir, "blobs");
  const found = (await readdir(blobs, { recursive: true })).find((f) =>
    f.includes(integrityHex(integrity) as string),
  );
  if (!found) throw new Error(`no blob for ${integrity}`);
  return join(blobs, found);
}
