import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { computeIntegrity } from "../package/integrity.js";

/** One way a package's store folder differs from the file hashes hookyard.lock records for it. */
export interface StoreProblem {
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

/**
 * Compares a store folder with the hashes the lock holds for it: every file must be there, be a
 * regular file with its hash, and nothing else may be there. Empty when the folder is exactly
 * what was installed. `verify` reports these; `install` re-fetches a package that has any.
 */
export async function storeProblems(store: string, files: Record<string, string>): Promise<StoreProblem[]> {
  const folder = await lstat(store).catch(() => undefined);
  if (!folder?.isDirectory()) return [{ kind: "store-missing", path: store }];
  const problems: StoreProblem[] = [];
  const present = await filesUnder(store);
  for (const [file, expected] of Object.entries(files)) {
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
  return problems;
}

/** One line per problem, for messages. */
export function describeStoreProblem(problem: StoreProblem): string {
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
