import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

/**
 * ARCHITECTURE.md is the one statement of which part may import which: this reads its tables, so
 * the page and the code cannot drift apart, and checks every relative import of every part's code.
 */
interface Rules {
  /** Part name (`runner`, or `index.ts` for a root file) → the parts it may import. */
  allowed: Map<string, Set<string>>;
  /** `from-file -> to-file` pairs allowed although they point the wrong way. */
  exceptions: Set<string>;
}

function backticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => (m[1] ?? "").replace(/\/$/, ""));
}

function tableRows(markdown: string, heading: RegExp): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => heading.test(line));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("|")) {
      if (rows.length > 0) break;
      continue;
    }
    if (/^\|\s*-/.test(line)) continue;
    rows.push(line.split("|").slice(1, -1));
  }
  return rows.slice(1); // the header row
}

function rulesOf(markdown: string): Rules {
  const allowed = new Map<string, Set<string>>();
  const parts = tableRows(markdown, /^## Parts$/);
  const names = parts.map((cells) => backticked(cells[0] ?? "")[0] ?? "");
  for (const cells of parts) {
    const part = backticked(cells[0] ?? "")[0] ?? "";
    const cell = cells[2] ?? "";
    const may = /every part but/.test(cell)
      ? names.filter((name) => !backticked(cell).includes(name))
      : /every part/.test(cell)
        ? names
        : backticked(cell);
    allowed.set(part, new Set(may));
  }
  const exceptions = new Set<string>();
  const exceptionsHeading = /^Imports that still point the wrong way/m;
  for (const cells of exceptionsHeading.test(markdown) ? tableRows(markdown, exceptionsHeading) : []) {
    for (const from of backticked(cells[0] ?? "")) {
      for (const to of backticked(cells[1] ?? "")) exceptions.add(`${from} -> ${to}`);
    }
  }
  return { allowed, exceptions };
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "examples" && entry.name !== "node_modules") out.push(...(await sourceFiles(path)));
    } else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(path);
    }
  }
  return out;
}

const importPattern = /(?:\bfrom|\bimport\(|^import)\s*["'](\.{1,2}\/[^"']+)["']/gm;

/** Every import from one part into another that the rules do not allow, as `from -> to`. */
async function violations(root: string, rules: Rules): Promise<string[]> {
  const found: string[] = [];
  for (const [part, may] of rules.allowed) {
    const files = part.endsWith(".ts") ? [join(root, part)] : await sourceFiles(join(root, part));
    for (const file of files) {
      const text = await readFile(file, "utf8");
      for (const match of text.matchAll(importPattern)) {
        const target = relative(root, normalize(join(dirname(file), match[1] ?? "")));
        const targetPart = target.split("/")[0] ?? "";
        if (targetPart === part || !rules.allowed.has(targetPart) || may.has(targetPart)) continue;
        const pair = `${relative(root, file)} -> ${target.replace(/\.js$/, ".ts")}`;
        if (!rules.exceptions.has(pair)) found.push(pair);
      }
    }
  }
  return found;
}

/** Inside sandbox/: each folder or file of the table → the folders and files it may import. */
function sandboxRulesOf(markdown: string): Map<string, Set<string>> {
  const units = new Map<string, Set<string>>();
  for (const cells of tableRows(markdown, /^### Inside `sandbox\/`/)) {
    const may = new Set(backticked(cells[2] ?? ""));
    for (const unit of backticked(cells[0] ?? "")) units.set(unit, may);
  }
  return units;
}

/** The most specific row a sandbox file belongs to: the file itself, else its nearest folder. */
function unitOf(units: Map<string, Set<string>>, file: string): string | undefined {
  let best: string | undefined;
  for (const unit of units.keys()) {
    const covers = file === unit || file.startsWith(`${unit}/`);
    if (covers && (best === undefined || unit.length > best.length)) best = unit;
  }
  return best;
}

/** Every import between sandbox/'s folders that its table does not allow, as `from -> to`. */
async function sandboxViolations(root: string, units: Map<string, Set<string>>): Promise<string[]> {
  const found: string[] = [];
  for (const file of await sourceFiles(join(root, "sandbox"))) {
    const from = relative(root, file);
    const fromUnit = unitOf(units, from);
    const text = await readFile(file, "utf8");
    if (fromUnit === undefined) {
      found.push(`${from} is in no row of the sandbox table`);
      continue;
    }
    for (const match of text.matchAll(importPattern)) {
      const target = relative(root, normalize(join(dirname(file), match[1] ?? ""))).replace(/\.js$/, ".ts");
      if (!target.startsWith("sandbox/")) continue;
      const toUnit = unitOf(units, target);
      if (toUnit === fromUnit || (toUnit !== undefined && units.get(fromUnit)?.has(toUnit))) continue;
      // A file with a row of its own is still part of its folder: parent code may import inline-backend.ts.
      if (unitOf(units, dirname(target)) === fromUnit) continue;
      found.push(`${from} -> ${target}`);
    }
  }
  return found;
}

/** Any import at all, relative or not, static or dynamic, or a require. */
const anyImportPattern = /(?:\bfrom\s*["']|\bimport\s*\(|^\s*import\s|\brequire\s*\()/m;

describe("the layering in ARCHITECTURE.md", () => {
  it("every part imports only the parts ARCHITECTURE.md allows it", async () => {
    const rules = rulesOf(await readFile(join(repoRoot, "ARCHITECTURE.md"), "utf8"));
    expect([...rules.allowed.keys()]).toEqual(
      expect.arrayContaining(["sandbox", "core", "package", "workspace", "runner", "registry", "cli"]),
    );
    expect(rules.allowed.get("sandbox")).toEqual(new Set());
    expect(await violations(repoRoot, rules)).toEqual([]);
  });

  it("integrations/ imports nothing of hookyard's, nor any package: node's own modules only (an agent loads it on its own)", async () => {
    const rules = rulesOf(await readFile(join(repoRoot, "ARCHITECTURE.md"), "utf8"));
    expect(rules.allowed.get("integrations")).toEqual(new Set());
    const files = await sourceFiles(join(repoRoot, "integrations"));
    expect(files.length).toBeGreaterThan(0);
    const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\brequire\s*\(\s*)["']([^"']+)["']/gm;
    for (const file of files) {
      const imported = [...(await readFile(file, "utf8")).matchAll(specifier)].map((m) => m[1] ?? "");
      expect(
        imported.filter((name) => !name.startsWith("node:")),
        file,
      ).toEqual([]);
    }
  });

  it("each allowed wrong-way import is still there (a removed one comes off the list)", async () => {
    const rules = rulesOf(await readFile(join(repoRoot, "ARCHITECTURE.md"), "utf8"));
    for (const pair of rules.exceptions) {
      const [from, to] = pair.split(" -> ") as [string, string];
      const text = await readFile(join(repoRoot, from), "utf8");
      const imported = [...text.matchAll(importPattern)].map((m) =>
        relative(repoRoot, normalize(join(dirname(join(repoRoot, from)), m[1] ?? ""))).replace(
          /\.js$/,
          ".ts",
        ),
      );
      expect(imported, pair).toContain(to);
    }
  });

  it("inside sandbox/, each folder imports only what its table allows; the guest imports nothing", async () => {
    const units = sandboxRulesOf(await readFile(join(repoRoot, "ARCHITECTURE.md"), "utf8"));
    expect(units.get("sandbox/guest")).toEqual(new Set());
    expect(units.get("sandbox/wire")?.has("sandbox/parent")).toBe(false);
    expect(units.get("sandbox/wire")?.has("sandbox/child")).toBe(false);
    expect(units.get("sandbox/child")?.has("sandbox/parent")).toBe(false);
    expect(units.get("sandbox/parent")?.has("sandbox/child")).toBe(false);
    expect(units.get("sandbox/parent/inline-backend.ts")?.has("sandbox/child")).toBe(true);
    expect(await sandboxViolations(repoRoot, units)).toEqual([]);
    const guest = await sourceFiles(join(repoRoot, "sandbox", "guest"));
    expect(guest.length).toBeGreaterThan(0);
    for (const file of guest) expect(anyImportPattern.test(await readFile(file, "utf8")), file).toBe(false);
  });

  it("a deliberate wrong import inside sandbox/ is caught: the child importing the parent, the wire the child", async () => {
    const root = await tempDir();
    const units = sandboxRulesOf(await readFile(join(repoRoot, "ARCHITECTURE.md"), "utf8"));
    for (const dir of ["parent", "child", "wire", "guest"])
      await mkdir(join(root, "sandbox", dir), { recursive: true });
    await writeFile(join(root, "sandbox", "parent", "limits.ts"), "export const x = 1;\n");
    await writeFile(join(root, "sandbox", "parent", "inline-backend.ts"), 'import "../child/runtime.js";\n');
    await writeFile(join(root, "sandbox", "parent", "sandbox.ts"), 'import "../child/runtime.js";\n');
    await writeFile(
      join(root, "sandbox", "child", "runtime.ts"),
      'import { x } from "../parent/limits.js";\n',
    );
    await writeFile(
      join(root, "sandbox", "wire", "protocol.ts"),
      'export type { T } from "../child/runtime.js";\n',
    );
    expect(await sandboxViolations(root, units)).toEqual([
      "sandbox/child/runtime.ts -> sandbox/parent/limits.ts",
      "sandbox/parent/sandbox.ts -> sandbox/child/runtime.ts",
      "sandbox/wire/protocol.ts -> sandbox/child/runtime.ts",
    ]);
    expect(anyImportPattern.test('const fs = require("node:fs");')).toBe(true);
    expect(anyImportPattern.test("const x = 1; // a comment that says import nothing")).toBe(false);
  });

  it("a deliberate wrong import is caught: the sandbox importing the runner", async () => {
    const root = await tempDir();
    const rules = rulesOf(await readFile(join(repoRoot, "ARCHITECTURE.md"), "utf8"));
    await mkdir(join(root, "sandbox", "child"), { recursive: true });
    await mkdir(join(root, "runner"), { recursive: true });
    for (const part of rules.allowed.keys()) {
      if (!part.endsWith(".ts")) await mkdir(join(root, part), { recursive: true });
      else await writeFile(join(root, part), "export {};\n");
    }
    await writeFile(join(root, "runner", "dispatch.ts"), "export const x = 1;\n");
    await writeFile(
      join(root, "sandbox", "child", "hook-slot.ts"),
      'import { x } from "../../runner/dispatch.js";\nexport const y = x;\n',
    );
    await writeFile(join(root, "core", "events.ts"), 'export const z = await import("../cli/main.js");\n');
    expect(await violations(root, rules)).toEqual([
      "sandbox/child/hook-slot.ts -> runner/dispatch.ts",
      "core/events.ts -> cli/main.ts",
    ]);
  });
});
