import semver from "semver";

interface Candidate {
  version: string;
  prerelease: boolean;
  yanked: unknown;
}

/** dist-tags.latest: the highest version that is neither yanked nor a prerelease. */
export function latestVersion(versions: readonly Candidate[]): string | undefined {
  return highest(versions.filter((v) => !v.yanked && !v.prerelease));
}

/** The version search shows: latest, else the highest not yanked, else the highest. */
export function displayVersion(versions: readonly Candidate[]): string | undefined {
  return latestVersion(versions) ?? highest(versions.filter((v) => !v.yanked)) ?? highest(versions);
}

function highest(versions: readonly Candidate[]): string | undefined {
  return versions.map((v) => v.version).sort(semver.rcompare)[0];
}
