import semver from "semver";
import { ClientError } from "../../client/errors.js";
import { parsePackageSpec } from "../../client/install/package-spec.js";
import type { Advisory } from "../../client/registry-client.js";
import type { Severity } from "../../client/severity.js";
import type { CliContext } from "../command.js";
import { withRegistry } from "./registry-session.js";

export interface CreatedAdvisory {
  registry: string;
  advisory: Advisory;
  /** The package's published versions, and those the range covers. */
  versions: string[];
  affected: string[];
}

/**
 * `advisory create`: the name and range checked before any request, the package looked up first
 * (the registry takes an advisory for any name, and one for a typo protects nobody), then posted.
 */
export async function createAdvisory(
  context: CliContext,
  options: Record<string, unknown>,
  name: string,
): Promise<CreatedAdvisory> {
  const spec = parsePackageSpec(name);
  if (spec.range !== undefined) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `name the package alone (${spec.name}) and the versions with --range`,
    );
  }
  const range = String(options.range);
  if (semver.validRange(range) === null) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `--range ${range} is not a semver range (<1.2.3, >=2 <2.4.1, 1.x)`,
    );
  }
  return withRegistry(
    context,
    options,
    async (client) => {
      const versions = Object.keys((await client.packageDocument(spec.name)).versions);
      const advisory = await client.createAdvisory({
        package: spec.name,
        range,
        severity: String(options.severity) as Severity,
        text: String(options.text),
      });
      const affected = versions.filter((v) => semver.satisfies(v, range, { includePrerelease: true }));
      return { registry: client.url, advisory, versions, affected };
    },
    { REG_ERR_FORBIDDEN: "advisories are published by the registry's admins: ask its operator" },
  );
}
