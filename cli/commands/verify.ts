import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { computeIntegrity } from "../../runner/integrity.js";
import { findWorkspaceRoot } from "../../runner/load-hooks.js";
import { type LockEntry, lockFileName, readLockfile, storePath } from "../../runner/lockfile.js";
import type { Command } from "../command.js";
import { CliError, exitCodes } from "../errors.js";
import { table } from "../table.js";

/** One way a package's store folder differs from hookyard.lock. */
interface StoreProblem {
  kind: "store-missing" | "missing" | "changed" | "extra" | "not-a-file";
  /** The file's path inside the package; absent for the folder itself. */
  file?: string;
  /** The absolute path in the store. */
  path: string;
  /** The hash hookyard.lock records. */
  expected?: string;
  /** The hash of what is in the store. */
  found?: string;
}

interface VerifiedPackage {
  name: string;
  version: string;
  store: string;
  ok: boolean;
  problems: StoreProblem[];
}

export default {
  name: "verify",
  summary: "Re-hash every installed package in .hookyard/store and compare it with hookyard.lock",
  options: [{ flags: "--json", description: "print JSON instead of text" }],
  help: [
    "Each file hookyard.lock lists must be in the package's store folder with that hash, and no",
    "other file may be there. Exits with 3 when anything differs; `hookyard install` restores the",
    "store from the registry.",
  ].join("\n"),
  async run(context, _args, options) {
    const root = await findWorkspaceRoot(context.cwd);
    const lock = await readLockfile(root);
    const entries = Object.entries(lock?.packages ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const packages: VerifiedPackage[] = [];
    for (const [name, entry] of entries) packages.push(await verifyPackage(root, name, entry));
    const failed = packages.filter((p) => !p.ok);

    if (options.json) {
      context.stdout.write(`${JSON.stringify({ root, packages }, null, 2)}\n`);
    } else if (packages.length === 0) {
      context.stdout.write(`nothing is installed: ${join(root, lockFileName)} lists no packages\n`);
    } else {
      context.stdout.write(table(packages.flatMap(rows)));
      if (failed.length === 0) {
        context.stdout.write(`${packages.length} package${packages.length === 1 ? "" : "s"} verified\n`);
      }
    }
    if (failed.length > 0) {
      throw new CliError(
        "CLI_ERR_INTEGRITY",
        `${failed.length} of ${packages.length} installed packages do not match hookyard.lock (${failed.map((p) => p.name).join(", ")}): run \`hookyard install\` to restore the store from the registry`,
        exitCodes.security,
      );
    }
    return exitCodes.ok;
  },
} satisfies Command;

function rows(pkg: VerifiedPackage): string[][] {
  const label = `${pkg.name}@${pkg.version}`;
  if (pkg.ok) return [[label, "ok"]];
  return pkg.problems.map((problem) => [label, describe(problem)]);
}

function describe(problem: StoreProblem): string {
  switch (problem.kind) {
    case "store-missing":
      return `store folder ${problem.path} is missing`;
    case "missing":
      return `${problem.path} is missing (expected ${problem.expected})`;
    case "changed":
      return `${problem.path} changed: expected ${problem.expected} (hookyard.lock), found ${problem.found}`;
    case "extra":
      return `${problem.path} is not in hookyard.lock (found ${problem.found})`;
    case "not-a-file":
      return `${problem.path} is not a regular file`;
  }
}

/** The package's store folder, file by file, against the lock's `files`. */
async function verifyPackage(root: string, name: string, entry: LockEntry): Promise<VerifiedPackage> {
  const store = storePath(root, entry.integrity);
  const result = (problems: StoreProblem[]) => ({
    name,
    version: entry.version,
    store,
    ok: problems.length === 0,
    problems,
  });
  const folder = await lstat(store).catch(() => undefined);
  if (!folder?.isDirectory()) return result([{ kind: "store-missing", path: store }]);

  const problems: StoreProblem[] = [];
  const present = await filesUnder(store);
  for (const [file, expected] of Object.entries(entry.files)) {
    const path = join(store, file);
    const kind = present.get(file);
    present.delete(file);
    if (kind === undefined) problems.push({ kind: "missing", file, path, expected });
    else if (kind !== "file") problems.push({ kind: "not-a-file", file, path, expected });
    else {
      const found = computeIntegrity(await readFile(path));
      if (found !== expected) problems.push({ kind: "changed", file, path, expected, found });
    }
  }
  for (const [file, kind] of present) {
    const path = join(store, file);
    if (kind === "file")
      problems.push({ kind: "extra", file, path, found: computeIntegrity(await readFile(path)) });
    else problems.push({ kind: "not-a-file", file, path });
  }
  return result(problems);
}

/**
 * Everything below `dir` that is not a folder, by package path (forward slashes): "file" for a
 * regular file, "other" for a link, a FIFO or a device, which the extractor never writes. Links
 * are not followed.
 */
async function filesUnder(dir: string): Promise<Map<string, "file" | "other">> {
  const found = new Map<string, "file" | "other">();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else found.set(relative(dir, path).split(sep).join("/"), entry.isFile() ? "file" : "other");
    }
  };
  await walk(dir);
  return found;
}
