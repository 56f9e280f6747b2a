import { cp, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../../package/integrity.js";
import { inspectTarball } from "../../../../package/tarball/inspect.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";

const manifest = {
  name: "guard",
  version: "1.2.3",
  description: "blocks bash",
  license: "MIT",
  hookyard: { main: "dist/hook.js", events: ["tool_before"], effects: ["block"] },
};

/** A hook package whose source imports a second file, as real hooks do. */
const sources = {
  "package.json": manifest,
  "src/hook.ts": `import { defineHook } from "hookyard";
import { reason } from "./reason.js";

export default defineHook({
  name: "guard",
  on: {
    tool_before(ctx) {
      return ctx.tool === "bash" ? { block: reason } : undefined;
    },
  },
});
`,
  "src/reason.ts": `export const reason: string = "no bash here";\n`,
  "README.md": "# guard\n",
  LICENSE: "MIT\n",
  "notes.txt": "not packed\n",
  "test/hook.test.mjs": "// not packed\n",
  ".gitignore": "*.tgz\n",
};

async function pack(args: string[], cwd: string) {
  return runCli(["pack", ...args], { cwd, env: { HOOKYARD_CONFIG: join(cwd, "no-config.json") } });
}

interface Packed {
  file: string;
  name: string;
  version: string;
  integrity: string;
  size: number;
  files: Array<{ path: string; size: number }>;
}

async function packJson(args: string[], cwd: string): Promise<Packed> {
  const result = await pack([...args, "--json"], cwd);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Packed;
}

/** Every file below `dir` with its bytes, to show that a refused pack wrote nothing. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const names = await readdir(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const name of names.sort()) {
    if ((await stat(join(dir, name))).isFile()) files[name] = await readFile(join(dir, name), "base64");
  }
  return files;
}

describe("hookyard pack", () => {
  it("packs the same bytes twice, holding package.json, the bundle, README and LICENSE and nothing else", async () => {
    const dir = await workspace(sources);
    const first = await packJson([], dir);
    const firstBytes = await readFile(first.file);
    const second = await packJson([], dir);
    expect(second.integrity).toBe(first.integrity);
    expect(await readFile(second.file)).toEqual(firstBytes);
    expect(first.file).toBe(join(dir, "guard-1.2.3.tgz"));
    expect(first.integrity).toBe(computeIntegrity(firstBytes));
    expect(first.size).toBe(firstBytes.length);
    expect(first).toMatchObject({ name: "guard", version: "1.2.3" });

    const inspected = await inspectTarball(firstBytes);
    expect(inspected.files.map((f) => f.path)).toEqual([
      "LICENSE",
      "README.md",
      "dist/hook.js",
      "package.json",
    ]);
    expect(first.files.map((f) => f.path)).toEqual(inspected.files.map((f) => f.path));
    expect(inspected.files.every((f) => f.mode === 0o644)).toBe(true);
    const packageJson = inspected.files.find((f) => f.path === "package.json");
    expect(packageJson?.data.toString()).toBe(await readFile(join(dir, "package.json"), "utf8"));

    // The bundle is the file pack wrote, and runs with nothing to import: not even from a data: URL.
    const bundle = inspected.files.find((f) => f.path === "dist/hook.js")?.data.toString() ?? "";
    expect(bundle).toBe(await readFile(join(dir, "dist/hook.js"), "utf8"));
    expect(bundle).not.toMatch(/\bimport\b|\brequire\(/);
    const hook = (await import(`data:text/javascript,${encodeURIComponent(bundle)}`)).default;
    expect(hook.on.tool_before({ tool: "bash", args: {} })).toEqual({ block: "no bash here" });
  });

  it("packs a copy in another folder, with other mtimes and from another cwd, to the same integrity", async () => {
    const dir = await workspace(sources);
    const original = await packJson([], dir);

    const elsewhere = join(await tempDir(), "deeper", "copy");
    await cp(dir, elsewhere, { recursive: true });
    await writeFile(join(elsewhere, "dist", "hook.js"), "stale bundle from an older build\n");
    const past = new Date("2001-02-03T04:05:06Z");
    for (const name of await readdir(elsewhere, { recursive: true }))
      await utimes(join(elsewhere, name), past, past);
    const copy = await packJson([elsewhere, "--out", "copy.tgz"], await tempDir());

    expect(copy.integrity).toBe(original.integrity);
    expect(await readFile(copy.file)).toEqual(await readFile(original.file));
  });

  it("prints the file, its size, the number of files and the integrity", async () => {
    const dir = await workspace(sources);
    const result = await pack([], dir);
    expect(result.code).toBe(0);
    const bytes = await readFile(join(dir, "guard-1.2.3.tgz"));
    expect(result.stdout).toContain("packed guard@1.2.3 (bundled src/hook.ts)");
    expect(result.stdout).toMatch(/file\s+guard-1\.2\.3\.tgz/);
    expect(result.stdout).toMatch(new RegExp(`size\\s+${bytes.length} B, 4 files`));
    expect(result.stdout).toContain(computeIntegrity(bytes));
  });

  it("refuses a source that imports node:fs, naming the import, and writes neither bundle nor .tgz", async () => {
    const dir = await workspace({
      ...sources,
      "src/hook.ts": `import { readFileSync } from "node:fs";
export default { name: "guard", on: { tool_before() { readFileSync("/etc/passwd"); } } };
`,
    });
    const before = await snapshot(dir);
    const result = await pack([], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hookyard: CLI_ERR_BUNDLE: src\/hook\.ts: Could not resolve "node:fs"/);
    expect(result.stderr).toContain("use the api argument");
    expect(await snapshot(dir)).toEqual(before);
  });

  it("names every bad field of an invalid manifest, and writes nothing", async () => {
    const dir = await workspace({
      ...sources,
      "package.json": {
        name: "Not A Name",
        version: "1.0",
        hookyard: { main: "../outside.js", events: ["tool_sometime"], effects: ["explode"] },
      },
    });
    const before = await snapshot(dir);
    const result = await pack([], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_MANIFEST_INVALID");
    for (const field of ["name:", "version:", "hookyard.main:", "hookyard.events.0:", "hookyard.effects.0:"])
      expect(result.stderr).toContain(field);
    expect(await snapshot(dir)).toEqual(before);
  });

  it("refuses a matcher the registry would refuse (ReDoS), naming the field, the pattern and why, and writes nothing", async () => {
    const dir = await workspace({
      ...sources,
      "package.json": { ...manifest, hookyard: { ...manifest.hookyard, matcher: { args: "(a+)+$" } } },
    });
    const before = await snapshot(dir);
    const result = await pack([], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `CLI_ERR_UNSAFE_MATCHER: ${join(dir, "package.json")} has a matcher hookyard will not run: hookyard.matcher.args: the pattern "(a+)+$" repeats a group that itself repeats`,
    );
    expect(result.stderr).toContain("repeat the inner part only");
    expect(await snapshot(dir)).toEqual(before);
  });

  it("without a source packs an existing self-contained main as it is; without either says what is missing", async () => {
    const prebuilt = `export default { name: "guard", on: { tool_before() { return { block: "prebuilt" }; } } };\n`;
    const { "src/hook.ts": _hook, "src/reason.ts": _reason, ...rest } = sources;
    const dir = await workspace({ ...rest, "dist/hook.js": prebuilt });
    const packed = await packJson([], dir);
    const inspected = await inspectTarball(await readFile(packed.file));
    expect(inspected.files.find((f) => f.path === "dist/hook.js")?.data.toString()).toBe(prebuilt);

    const empty = await workspace(rest);
    const result = await pack([], empty);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_BUNDLE");
    expect(result.stderr).toContain("src/hook.ts");
    expect(result.stderr).toContain("no dist/hook.js");
    expect(await readdir(empty)).not.toContain("guard-1.2.3.tgz");
  });

  it("refuses a prebuilt main that still loads other modules, naming each", async () => {
    const { "src/hook.ts": _hook, "src/reason.ts": _reason, ...rest } = sources;
    const dir = await workspace({
      ...rest,
      "dist/hook.js": `import { reason } from "./reason.js";
export * from "left-pad";
const fs = require("fs");
// import "in-a-comment" is not an import
const text = 'import "in-a-string"';
export default { name: "guard", on: { tool_before() { return { block: reason + fs + text }; } } };
`,
      "dist/reason.js": `export const reason = "x";\n`,
    });
    const result = await pack([], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_BUNDLE: dist/hook.js still loads ./reason.js, fs, left-pad;");
    expect(await readdir(dir)).not.toContain("guard-1.2.3.tgz");
  });

  it("never writes the bundle over the source: a main that is the source is refused", async () => {
    const { "src/hook.ts": hook, ...rest } = sources;
    const dir = await workspace({
      ...rest,
      "src/hook.js": hook.replace(": string", ""),
      "package.json": { ...manifest, hookyard: { ...manifest.hookyard, main: "src/hook.js" } },
    });
    const before = await snapshot(dir);
    const result = await pack([], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "CLI_ERR_MANIFEST_INVALID: hookyard.main is src/hook.js, the source itself",
    );
    expect(await snapshot(dir)).toEqual(before);
  });

  it("takes --entry and --out from the command line, and names a scoped package's tarball without the @", async () => {
    const dir = await workspace({
      ...sources,
      "package.json": { ...manifest, name: "@acme/guard" },
      "lib/other.ts": `export default { name: "other", on: { tool_before() { return { block: "other entry" }; } } };\n`,
    });
    const scoped = await packJson([], dir);
    expect(scoped.file).toBe(join(dir, "acme-guard-1.2.3.tgz"));

    const out = await tempDir();
    const other = await packJson(["--entry", "lib/other.ts", "--out", join(out, "x.tgz")], dir);
    expect(other.file).toBe(join(out, "x.tgz"));
    expect(await readFile(join(dir, "dist/hook.js"), "utf8")).toContain("other entry");

    const missing = await pack(["--entry", "lib/nope.ts"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("lib/nope.ts is not a file");
  });

  it("says so when the folder has no package.json, or is not a folder", async () => {
    const dir = await workspace({ "src/hook.ts": sources["src/hook.ts"] });
    const result = await pack([], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`CLI_ERR_MANIFEST_INVALID: ${dir} has no package.json`);

    const notDir = await pack(["src/hook.ts"], dir);
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toContain("is not a folder");
  });
});
