import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { InspectedTarball } from "../../registry/tarball/inspect.js";
import { computeIntegrity } from "../../runner/integrity.js";

/** Each file of a package with its SRI sha512: what hookyard.lock records and the store is checked against. */
export function fileHashes(contents: InspectedTarball): Record<string, string> {
  return Object.fromEntries(contents.files.map((file) => [file.path, computeIntegrity(file.data)]));
}

export interface StoreProblem {
  file: string;
  problem: "missing" | "changed" | "extra";
  expected?: string;
  found?: string;
}

/**
 * Compares a store folder with the hashes the lockfile holds for it: every file must be there with
 * its hash and nothing else may be. Empty when the folder is exactly what was installed.
 */
export async function storeProblems(dir: string, files: Record<string, string>): Promise<StoreProblem[]> {
  let present: string[];
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    present = entries
      .filter((entry) => !entry.isDirectory())
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [{ file: dir, problem: "missing" }];
    throw error;
  }
  const problems: StoreProblem[] = [];
  for (const [path, expected] of Object.entries(files)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, path));
    } catch {
      problems.push({ file: join(dir, path), problem: "missing", expected });
      continue;
    }
    const found = computeIntegrity(bytes);
    if (found !== expected) problems.push({ file: join(dir, path), problem: "changed", expected, found });
  }
  for (const path of present) {
    if (!(path in files)) problems.push({ file: join(dir, path), problem: "extra" });
  }
  return problems;
}

/** One line per problem, for messages. */
export function describeStoreProblem(problem: StoreProblem): string {
  switch (problem.problem) {
    case "missing":
      return `${problem.file} is missing`;
    case "extra":
      return `${problem.file} is not part of the package`;
    case "changed":
      return `${problem.file} has ${problem.found}, but hookyard.lock records ${problem.expected}`;
  }
}
