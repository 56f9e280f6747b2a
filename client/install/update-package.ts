import semver from "semver";
import { grantWithin, parseGrants } from "../../sandbox/capabilities.js";
import { type RegistryFlags, registryAccess } from "../access/registry-access.js";
import type { ClientContext } from "../context.js";
import { noticeAdvisories } from "./advisory-notices.js";
import { checkGrantsWithin, chooseGrants } from "./choose-grants.js";
import { registryOfResolved } from "./install-from-lock.js";
import { installVersion } from "./install-version.js";
import { installedEntry } from "./installed.js";
import { latestVersion, newestInRange, savedRange } from "./package-spec.js";
import type { InstallTransaction } from "./transaction.js";

export interface UpdateHow extends RegistryFlags {
  /** Grant strings to give the new version, each within what it requests. */
  grant?: string[];
  /** Ask nothing: refuse an update that requests something new not in `grant`. */
  yes?: boolean;
  /** Re-pin the registry's signing key to this key id. */
  acceptKey?: string;
  /** Move to the newest version whatever the range, and record `^<it>` as the new range (npm's `install <name>@latest`). */
  latest?: boolean;
}

export interface UpdateOutcome {
  name: string;
  from: string;
  to?: string;
  /** Capabilities the new version asks for that were not granted, when the update was refused for them. */
  refused?: string[];
  /** With no move: the range in hookyard.json, and a newer version outside it (`--latest` takes it). */
  range?: string;
  latest?: string;
}

/**
 * `hookyard update`, one package: moves it to the highest version its range allows (or, with
 * `latest`, the newest, widening the range to it), keeping the
 * grants the new version still asks for, and refuses (leaving the old version) one that asks for
 * something new that was not granted.
 */
export async function updatePackage(
  context: ClientContext,
  tx: InstallTransaction,
  options: UpdateHow,
  name: string,
): Promise<UpdateOutcome> {
  const previous = installedEntry(tx, name);
  const range = tx.config.data.community?.[name] ?? "*";
  const client = await registryAccess(
    context,
    { ...options, registry: options.registry ?? registryOfResolved(previous.resolved) },
    { workspace: tx.config, signal: tx.signal },
  );
  const document = await client.packageDocument(name);
  const version = options.latest ? latestVersion(document) : newestInRange(document, range);
  if (!version || !semver.gt(version.version, previous.version)) {
    const newest = latestVersion(document)?.version;
    return newest && semver.gt(newest, previous.version)
      ? { name, from: previous.version, range, latest: newest }
      : { name, from: previous.version };
  }
  // Only once it moves: a refused update leaves hookyard.json's range as it was.
  const widenRange = () => {
    if (options.latest) {
      tx.config.data.community = {
        ...tx.config.data.community,
        [name]: savedRange(undefined, version.version),
      };
    }
  };
  const id = `${name}@${version.version}`;
  await noticeAdvisories(context, client, name, version.version);
  const installed = await installVersion(context, tx, client, version, {
    acceptKey: options.acceptKey,
    yes: options.yes,
  });
  if (previous.trust === "trusted") {
    context.notice?.({
      level: "info",
      text: `${name} stays trusted: ${version.version} runs in-process too`,
    });
    tx.lock.packages[name] = { ...installed.entry, trust: "trusted", grants: [] };
    widenRange();
    return { name, from: previous.version, to: version.version };
  }
  const given = checkGrantsWithin(id, options.grant ?? [], installed.requested);
  const covers = (text: string, by: readonly string[]) =>
    parseGrants([text]).every((g) => grantWithin(g, parseGrants(by)));
  // Only what the old version did not ask for is new: the user already decided on the rest.
  const fresh = installed.requested.filter((text) => !covers(text, previous.requested));
  const ungranted = fresh.filter((text) => !covers(text, given));
  if (ungranted.length > 0 && (options.yes || !context.approveGrants)) {
    await tx.discard(installed.storeDir);
    return { name, from: previous.version, to: version.version, refused: ungranted };
  }
  const ceiling = parseGrants(installed.requested);
  const kept = previous.grants.filter((text) => parseGrants([text]).every((g) => grantWithin(g, ceiling)));
  // A grant wider than what the new version asks for narrows to it (an old package's bare
  // `rewrite` to its new `rewrite:tool_before.args.timeout`): the user already allowed more.
  for (const text of installed.requested) {
    if (!kept.includes(text) && covers(text, previous.grants)) kept.push(text);
  }
  const { granted } = await chooseGrants(
    context,
    id,
    installed.requested,
    [...new Set([...kept, ...given])],
    {
      yes: Boolean(options.yes),
    },
  );
  tx.lock.packages[name] = { ...installed.entry, trust: "sandboxed", grants: granted };
  widenRange();
  return { name, from: previous.version, to: version.version };
}
