import { lockEntryRegistry } from "../../../client/access/lock-registry.js";
import type { PackageAudit } from "../../../client/audit.js";
import { atLeast, type Severity, severities } from "../../../client/severity.js";
import type { LockEntry } from "../../../workspace/lockfile.js";
import type { CliContext, Command } from "../../command.js";
import { exitCodes } from "../../errors.js";
import { safeTable } from "../../ui/terminal-text.js";

export default {
  name: "audit",
  summary: "Check installed community hooks for advisories and yanked versions",
  options: [
    {
      flags: "--level <severity>",
      description: "exit 1 when a finding is at least this severe",
      default: "low",
      choices: [...severities],
    },
    { flags: "--json", description: "print JSON instead of text" },
  ],
  help: [
    "Each package is checked at the registry it was installed from (its resolved URL in hookyard.lock).",
    "A yanked installed version counts as a moderate finding; a deprecated one is shown but is not a finding.",
  ].join("\n"),
  async run(context, _args, options) {
    const { findWorkspaceRoot } = await import("../../../workspace/root.js");
    const { lockFileName, readLockfile } = await import("../../../workspace/lockfile.js");
    const level = options.level as Severity;
    const root = await findWorkspaceRoot(context.cwd);
    const { readWorkspaceConfigFile } = await import("../../../client/workspace-config.js");
    const lock = await readLockfile(root);
    const ranges = (await readWorkspaceConfigFile(root)).data.community ?? {};
    const entries = Object.entries(lock?.packages ?? {});
    const audits = (await auditAll(entries, ranges)).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const findings = audits.flatMap((a) => a.findings);
    const failed = findings.some((f) => atLeast(f.severity, level));
    if (options.json) {
      const bySeverity = Object.fromEntries(
        severities.map((s) => [s, findings.filter((f) => f.severity === s).length]),
      );
      context.stdout.write(
        `${JSON.stringify({ level, failed, packages: audits, summary: { packages: audits.length, findings: findings.length, bySeverity } }, null, 2)}\n`,
      );
    } else if (audits.length === 0) {
      context.stdout.write(`no community hooks are installed (no entries in ${lockFileName})\n`);
    } else {
      writeReport(context, audits, level);
    }
    return failed ? exitCodes.error : exitCodes.ok;
  },
} satisfies Command;

/** Asks each package's own registry, one advisories request per registry; any failure stops the audit. */
async function auditAll(
  entries: Array<[string, LockEntry]>,
  ranges: Readonly<Record<string, string>>,
): Promise<PackageAudit[]> {
  const { auditPackage } = await import("../../../client/audit.js");
  const { RegistryClient } = await import("../../../client/registry-client.js");
  const byRegistry = new Map<string, Array<[string, LockEntry]>>();
  for (const [name, entry] of entries) {
    const registry = lockEntryRegistry(name, entry);
    byRegistry.set(registry, [...(byRegistry.get(registry) ?? []), [name, entry]]);
  }
  const groups = await Promise.all(
    [...byRegistry].map(async ([registry, group]) => {
      const client = new RegistryClient(registry);
      const [advisories, audits] = await Promise.all([
        client.advisories(group.map(([name]) => name)),
        Promise.all(
          group.map(async ([name, entry]) => ({ name, entry, document: await client.packageDocument(name) })),
        ),
      ]);
      return audits.map(({ name, entry, document }) =>
        auditPackage(name, entry, registry, document, advisories[name] ?? [], ranges[name] ?? null),
      );
    }),
  );
  return groups.flat();
}

function writeReport(context: CliContext, audits: readonly PackageAudit[], level: Severity): void {
  for (const audit of audits) {
    if (audit.findings.length === 0 && audit.deprecated === null) continue;
    const rows = audit.findings.map((f) => [
      f.severity,
      f.kind === "advisory"
        ? `advisory ${f.id} (versions ${f.range}): ${f.text}`
        : `yanked: ${f.reason ?? "no reason given"}`,
    ]);
    if (audit.deprecated !== null) rows.push(["note", `deprecated: ${audit.deprecated}`]);
    context.stdout.write(`${audit.name}@${audit.version} (${audit.registry})\n${safeTable(rows, "  ")}`);
    if (audit.findings.length > 0) context.stdout.write(`  what to do: ${remedy(audit)}\n`);
    context.stdout.write("\n");
  }
  const findings = audits.flatMap((a) => a.findings);
  const counted = `${audits.length} package${audits.length === 1 ? "" : "s"} audited`;
  if (findings.length === 0) {
    context.stdout.write(`${counted}: no findings\n`);
    return;
  }
  const affected = audits.filter((a) => a.findings.length > 0).length;
  const bySeverity = [...severities]
    .reverse()
    .map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(", ");
  const below = findings.some((f) => atLeast(f.severity, level)) ? "" : `; none at or above --level ${level}`;
  context.stdout.write(
    `${counted}: ${findings.length} finding${findings.length === 1 ? "" : "s"} in ${affected} package${affected === 1 ? "" : "s"} (${bySeverity})${below}\n`,
  );
}

function remedy(audit: PackageAudit): string {
  if (audit.fixedIn && audit.fixedOutsideRange) {
    return `hookyard update ${audit.name} --latest (${audit.fixedIn} is not yanked and no advisory names it; it is outside the range ${audit.range} in hookyard.json, which --latest widens to ^${audit.fixedIn})`;
  }
  if (audit.fixedIn) {
    return `hookyard update ${audit.name} (${audit.fixedIn} is not yanked and no advisory names it)`;
  }
  return `no fixed version yet: watch for one with \`hookyard info ${audit.name}\`, or remove it with \`hookyard uninstall ${audit.name}\``;
}
