import semver from "semver";
import type { LockEntry } from "../workspace/lockfile.js";
import { ClientError } from "./errors.js";
import type { Advisory, PackageDocument } from "./registry-client.js";
import { type Severity, severities } from "./severity.js";

/** A yanked version was withdrawn by its publisher for a reason: worth acting on, rarely an emergency. */
const yankedSeverity: Severity = "moderate";

export type Finding =
  | { kind: "advisory"; severity: Severity; id: number; range: string; text: string }
  | { kind: "yanked"; severity: Severity; reason: string | null };

/** What `hookyard audit` found about one installed package; `--json` prints these. */
export interface PackageAudit {
  name: string;
  version: string;
  registry: string;
  findings: Finding[];
  /** The installed version's deprecation message: shown, not a finding. */
  deprecated: string | null;
  /** The highest version newer than the installed one that is not yanked, not a prerelease and in no advisory's range. */
  fixedIn: string | null;
  /** The package's range in hookyard.json (null: none there), and whether `fixedIn` is outside it: `update --latest` then. */
  range: string | null;
  fixedOutsideRange: boolean;
}

/** Whether an advisory names a version (a prerelease too, when its range reaches it). */
export function advisoryAffects(advisory: Pick<Advisory, "range">, version: string): boolean {
  return semver.satisfies(version, advisory.range, { includePrerelease: true });
}

/** Judges one lock entry against its registry's package document and advisories. */
export function auditPackage(
  name: string,
  entry: Pick<LockEntry, "version">,
  registry: string,
  document: PackageDocument,
  advisories: readonly Advisory[],
  range: string | null,
): PackageAudit {
  const installed = document.versions[entry.version];
  if (!installed) {
    throw new ClientError(
      "CLI_ERR_NOT_FOUND",
      `${name}@${entry.version} from hookyard.lock is not in the registry at ${registry} (the registry it was installed from); reinstall it with \`hookyard install ${name}\``,
    );
  }
  const findings: Finding[] = advisories
    .filter((a) => advisoryAffects(a, entry.version))
    .map(({ severity, id, range, text }) => ({ kind: "advisory", severity, id, range, text }));
  if (installed.yanked) {
    findings.push({ kind: "yanked", severity: yankedSeverity, reason: installed.yankedReason });
  }
  findings.sort((a, b) => severities.indexOf(b.severity) - severities.indexOf(a.severity));
  const fixedIn =
    Object.values(document.versions)
      .filter(
        (v) =>
          !v.yanked &&
          semver.valid(v.version) !== null &&
          semver.prerelease(v.version) === null &&
          semver.gt(v.version, entry.version) &&
          !advisories.some((a) => advisoryAffects(a, v.version)),
      )
      .map((v) => v.version)
      .sort(semver.rcompare)[0] ?? null;
  const fixedOutsideRange = fixedIn !== null && range !== null && !semver.satisfies(fixedIn, range);
  return {
    name,
    version: entry.version,
    registry,
    findings,
    deprecated: installed.deprecated,
    fixedIn,
    range,
    fixedOutsideRange,
  };
}
