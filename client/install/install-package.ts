import type { Trust } from "../../core/hook.js";
import { grantWithin, parseGrants } from "../../sandbox/capabilities.js";
import { type RegistryFlags, registryAccess } from "../access/registry-access.js";
import type { ClientContext } from "../context.js";
import { noticeAdvisories } from "./advisory-notices.js";
import { checkGrantsWithin, chooseGrants, warnRewritesUngranted } from "./choose-grants.js";
import { installVersion } from "./install-version.js";
import { type PackageSpec, resolveVersion, savedRange } from "./package-spec.js";
import type { InstallTransaction } from "./transaction.js";

export interface InstallResult {
  name: string;
  version: string;
  integrity: string;
  trust: Trust;
  grants: string[];
  declined: string[];
  registry: string;
}

export interface InstallHow {
  /** Run it in-process with every right (no grants); otherwise sandboxed. */
  trust: boolean;
  /** Grant strings to give, each within what the package requests. */
  grants: string[];
  /** Ask nothing: grant only `grants` (and what an earlier install of it kept). */
  yes: boolean;
  /** Re-pin the registry's signing key to this key id. */
  acceptKey: string | undefined;
}

/** `hookyard install <name>[@range]`: resolves, fetches and verifies one package, and records it in the transaction. */
export async function installPackage(
  context: ClientContext,
  tx: InstallTransaction,
  flags: RegistryFlags,
  spec: PackageSpec,
  how: InstallHow,
): Promise<InstallResult> {
  const client = await registryAccess(context, flags, { workspace: tx.config, signal: tx.signal });
  const document = await client.packageDocument(spec.name);
  const version = resolveVersion(document, spec.range);
  const id = `${spec.name}@${version.version}`;
  // The package's owner wrote these words: the caller shows them as text.
  if (version.deprecated)
    context.notice?.({ level: "warning", text: `${id} is deprecated: ${version.deprecated}` });
  if (version.yanked)
    context.notice?.({ level: "warning", text: `${id} is yanked: ${version.yankedReason ?? ""}` });
  await noticeAdvisories(context, client, spec.name, version.version);
  // Checked against the registry's word before downloading, and against the verified manifest after.
  if (!how.trust) checkGrantsWithin(id, how.grants, version.capabilities);
  const installed = await installVersion(context, tx, client, version, {
    acceptKey: how.acceptKey,
    yes: how.yes,
  });
  const previous = tx.lock.packages[spec.name];
  let grants: string[] = [];
  let declined: string[] = [];
  if (!how.trust) {
    // What was granted before carries over as far as this version still asks for it.
    const ceiling = parseGrants(installed.requested);
    const kept =
      previous?.trust === "sandboxed"
        ? previous.grants.filter((text) => parseGrants([text]).every((g) => grantWithin(g, ceiling)))
        : [];
    const choice = await chooseGrants(
      context,
      id,
      installed.requested,
      [...new Set([...kept, ...how.grants])],
      { yes: how.yes },
    );
    ({ granted: grants, declined } = choice);
    tx.afterCommit(() => warnRewritesUngranted(context, spec.name, id, choice));
  }
  const trust: Trust = how.trust ? "trusted" : "sandboxed";
  tx.lock.packages[spec.name] = { ...installed.entry, trust, grants };
  tx.config.data.community = {
    ...tx.config.data.community,
    [spec.name]: savedRange(spec.range, version.version),
  };
  return {
    name: spec.name,
    version: version.version,
    integrity: version.integrity,
    trust,
    grants,
    declined,
    registry: client.url,
  };
}
