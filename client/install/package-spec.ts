import semver from "semver";
import { packageNameSchema } from "../../package/manifest.js";
import { ClientError } from "../errors.js";
import type { PackageDocument, RegistryVersion } from "../registry-client.js";

export interface PackageSpec {
  name: string;
  /** A semver range or exact version; undefined: the latest. */
  range: string | undefined;
}

/** `name`, `name@1.2.3`, `name@^1.2`, `@scope/name@~2`: the name is checked, the range must be valid semver. */
export function parsePackageSpec(text: string): PackageSpec {
  const at = text.indexOf("@", 1);
  const name = at < 0 ? text : text.slice(0, at);
  const range = at < 0 ? undefined : text.slice(at + 1);
  const parsed = packageNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `"${name}" is not a package name: ${parsed.error.issues[0]?.message}`,
    );
  }
  // semver reads "" as any version: `guard@` is a slip, not a request for anything.
  if (range?.trim() === "") {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `${text} names no version after the @: write ${name} or ${name}@<version or range>`,
    );
  }
  if (range !== undefined && semver.validRange(range) === null) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `"${range}" in ${text} is not a version or semver range (1.2.3, ^1.2.0, ~1.2)`,
    );
  }
  return { name, range };
}

/**
 * `name@1.2.3` and nothing looser, for the commands that change one version (yank, deprecate):
 * a range there could name a version the user did not mean.
 */
export function parseExactVersion(text: string): { name: string; version: string } {
  const { name, range } = parsePackageSpec(text);
  if (range === undefined || semver.valid(range) !== range) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `${text} does not name one exact version: write ${name}@<version>, such as ${name}@1.2.3 (\`hookyard info ${name}\` lists its versions)`,
    );
  }
  return { name, version: range };
}

/**
 * The version to install: the highest that satisfies `range`, is not yanked and is not a
 * prerelease (npm's rule); with no range, that among all versions. An exact version is taken even
 * when yanked or a prerelease, as asked.
 */
export function resolveVersion(document: PackageDocument, range: string | undefined): RegistryVersion {
  const exact = range !== undefined ? semver.valid(range) : null;
  if (exact) {
    const version = document.versions[exact];
    if (version) return version;
  }
  const candidates = Object.values(document.versions)
    .filter((v) => !v.yanked && semver.prerelease(v.version) === null)
    .filter((v) => range === undefined || semver.satisfies(v.version, range))
    .sort((a, b) => semver.rcompare(a.version, b.version));
  const best = candidates[0];
  if (best) return best;
  const available = Object.values(document.versions)
    .map((v) => `${v.version}${v.yanked ? " (yanked)" : ""}`)
    .join(", ");
  throw new ClientError(
    "CLI_ERR_NO_MATCHING_VERSION",
    range === undefined
      ? `${document.name} has no version that is neither yanked nor a prerelease (versions: ${available || "none"}); name one exactly, ${document.name}@<version>`
      : `no version of ${document.name} satisfies ${range} (versions: ${available || "none"}); yanked versions are only installed when named exactly`,
  );
}

/** The newest version `install` would take with no range: the highest neither yanked nor a prerelease. */
export function latestVersion(document: PackageDocument): RegistryVersion | undefined {
  return Object.values(document.versions)
    .filter((v) => !v.yanked && semver.prerelease(v.version) === null)
    .sort((a, b) => semver.rcompare(a.version, b.version))[0];
}

/**
 * The range hookyard.json records for an installed version, as npm saves one: `^1.2.3` for a plain
 * release (also when it was named exactly: `guard@1.2.3`), so updates can move; the version itself
 * for a prerelease, or when pinned with `=` (`guard@=1.2.3`); any other range as written.
 */
export function savedRange(asked: string | undefined, installed: string): string {
  if (semver.prerelease(installed) !== null) return asked ?? installed;
  if (asked === undefined || (semver.valid(asked) !== null && !asked.trim().startsWith("="))) {
    return `^${installed}`;
  }
  return asked;
}

/** What `update` moves to within a range: as `resolveVersion`, but none when every version it allows is yanked. */
export function newestInRange(
  document: PackageDocument,
  range: string | undefined,
): RegistryVersion | undefined {
  try {
    return resolveVersion(document, range);
  } catch (error) {
    if (error instanceof ClientError && error.code === "CLI_ERR_NO_MATCHING_VERSION") return undefined;
    throw error;
  }
}
