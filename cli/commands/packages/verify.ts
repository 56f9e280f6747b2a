import { join } from "node:path";
import type { LockEntry } from "../../../workspace/lockfile.js";
import type { StoreProblem } from "../../../workspace/store-check.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { table } from "../../ui/table.js";

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
    const { findWorkspaceRoot } = await import("../../../workspace/root.js");
    const { lockFileName, readLockfile } = await import("../../../workspace/lockfile.js");
    const { describeStoreProblem } = await import("../../../workspace/store-check.js");
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
      context.stdout.write(table(packages.flatMap((pkg) => rows(pkg, describeStoreProblem))));
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

function rows(pkg: VerifiedPackage, describe: (problem: StoreProblem) => string): string[][] {
  const label = `${pkg.name}@${pkg.version}`;
  if (pkg.ok) return [[label, "ok"]];
  return pkg.problems.map((problem) => [label, describe(problem)]);
}

/** The package's store folder, file by file, against the lock's `files`. */
async function verifyPackage(root: string, name: string, entry: LockEntry): Promise<VerifiedPackage> {
  const { storePath } = await import("../../../workspace/lockfile.js");
  const { storeProblems } = await import("../../../workspace/store-check.js");
  const store = storePath(root, entry.integrity);
  const result = (problems: StoreProblem[]) => ({
    name,
    version: entry.version,
    store,
    ok: problems.length === 0,
    problems,
  });
  return result(await storeProblems(store, entry.files));
}
