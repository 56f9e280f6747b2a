import type { Command } from "../../command.js";
import { exitCodes } from "../../errors.js";
import { safeTable } from "../../ui/terminal-text.js";

export default {
  name: "outdated",
  summary: "List community hooks with a newer version: the one their range allows, and the newest",
  options: [{ flags: "--json", description: "print every installed package, outdated or not, as JSON" }],
  help: [
    "For each package in hookyard.lock, asked at the registry it was installed from: current (installed),",
    "wanted (the newest its range in hookyard.json allows: `hookyard update` moves there) and latest (the",
    "newest of all, neither yanked nor a prerelease: `hookyard update --latest`). Only outdated packages",
    "are listed. Exit 1 when one is outdated (as npm outdated), 0 when none is.",
  ].join("\n"),
  async run(context, _args, options) {
    const { findWorkspaceRoot } = await import("../../../workspace/root.js");
    const { lockFileName, readLockfile } = await import("../../../workspace/lockfile.js");
    const { readWorkspaceConfigFile } = await import("../../../client/workspace-config.js");
    const { outdatedPackages } = await import("../../../client/outdated.js");
    const root = await findWorkspaceRoot(context.cwd);
    const entries = Object.entries((await readLockfile(root))?.packages ?? {});
    const ranges = (await readWorkspaceConfigFile(root)).data.community ?? {};
    const packages = await outdatedPackages(entries, ranges);
    const outdated = packages.filter((p) => p.outdated);
    if (options.json) {
      context.stdout.write(`${JSON.stringify({ root, packages }, null, 2)}\n`);
    } else if (packages.length === 0) {
      context.stdout.write(`no community hooks are installed (no entries in ${lockFileName})\n`);
    } else if (outdated.length === 0) {
      context.stdout.write(
        `${packages.length} package${packages.length === 1 ? "" : "s"} checked: each is on its newest version\n`,
      );
    } else {
      const rows = outdated.map((p) => [p.name, p.current, p.wanted ?? "-", p.latest ?? "-", p.range ?? "-"]);
      context.stdout.write(safeTable([["package", "current", "wanted", "latest", "range"], ...rows]));
      const hints: string[] = [];
      if (outdated.some((p) => p.wanted !== null && p.wanted !== p.current)) {
        hints.push("`hookyard update` moves each to its wanted version");
      }
      if (outdated.some((p) => p.latest !== null && p.latest !== p.wanted)) {
        hints.push("`hookyard update <name> --latest` to the latest, widening its range");
      }
      context.stdout.write(`\n${hints.join("; ")}\n`);
    }
    return outdated.length > 0 ? exitCodes.error : exitCodes.ok;
  },
} satisfies Command;
