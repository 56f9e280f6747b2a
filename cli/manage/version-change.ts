import { ClientError } from "../../client/errors.js";
import { parseExactVersion } from "../../client/install/package-spec.js";
import type { PackageDocument, RegistryClient, RegistryVersion } from "../../client/registry-client.js";
import type { CliContext } from "../command.js";
import { withRegistry } from "./registry-session.js";

export interface VersionChange {
  registry: string;
  name: string;
  version: string;
  /** The version before the change, as the registry listed it. */
  before: RegistryVersion;
  /** The version as the registry answered the change. */
  after: RegistryVersion;
  /** dist-tags.latest after the change; undefined when no version is neither yanked nor a prerelease. */
  latest: string | undefined;
}

/**
 * yank, unyank, deprecate: one exact version (`name@1.2.3`, a usage error otherwise), checked to
 * exist before the token is used (the registry would answer a non-owner "forbidden" for a name
 * that does not exist), changed, then read again for the latest it leaves.
 */
export async function changeVersion(
  context: CliContext,
  options: Record<string, unknown>,
  spec: string,
  change: (client: RegistryClient, name: string, version: string) => Promise<RegistryVersion>,
): Promise<VersionChange> {
  const { name, version } = parseExactVersion(spec);
  return withRegistry(
    context,
    options,
    async (client) => {
      const before = versionIn(await client.packageDocument(name), version, client.url);
      const after = await change(client, name, version);
      const latest = (await client.packageDocument(name))["dist-tags"].latest;
      return { registry: client.url, name, version, before, after, latest };
    },
    {
      REG_ERR_FORBIDDEN: `only its owners may change its versions: \`hookyard owner ls ${name}\` lists them`,
    },
  );
}

function versionIn(document: PackageDocument, version: string, registry: string): RegistryVersion {
  const found = document.versions[version];
  if (found) return found;
  const versions = Object.keys(document.versions).join(", ") || "none";
  throw new ClientError(
    "CLI_ERR_NOT_FOUND",
    `${document.name} has no version ${version} on ${registry} (its versions: ${versions}); nothing was changed`,
  );
}
