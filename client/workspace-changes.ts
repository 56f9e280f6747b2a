import type { RegistryFlags } from "./access/registry-access.js";
import type { ClientContext } from "./context.js";
import { changeGrants, type GrantsAfterChange } from "./install/change-grants.js";
import { installFromLock as fillStore, type LockInstallSummary } from "./install/install-from-lock.js";
import { type InstallHow, type InstallResult, installPackage } from "./install/install-package.js";
import { installedEntry } from "./install/installed.js";
import { parsePackageSpec } from "./install/package-spec.js";
import { InstallTransaction } from "./install/transaction.js";
import { type Uninstalled, uninstallPackages } from "./install/uninstall-packages.js";
import { type UpdateHow, type UpdateOutcome, updatePackage } from "./install/update-package.js";

/*
 * Each change to a workspace's community hooks is one transaction: the workspace is locked, and
 * hookyard.json, hookyard.lock and the store are written together or left as they were.
 */

export interface InstallOptions extends RegistryFlags, Partial<InstallHow> {}

/** Installs `name`, `name@version` or `name@range` (sandboxed unless `trust`), and records it in hookyard.json and hookyard.lock. */
export async function install(
  context: ClientContext,
  spec: string,
  options: InstallOptions = {},
): Promise<InstallResult> {
  const parsed = parsePackageSpec(spec);
  const tx = await InstallTransaction.open(context);
  const replaced = tx.lock.packages[parsed.name]?.integrity;
  if (replaced) tx.dropUnusedAfterCommit([replaced]);
  return tx.run(() =>
    installPackage(context, tx, options, parsed, {
      trust: options.trust ?? false,
      grants: options.grants ?? [],
      yes: options.yes ?? false,
      acceptKey: options.acceptKey,
    }),
  );
}

/** Like `npm ci`: makes the store hold exactly what hookyard.lock says (offline where the bytes are there); changes neither file. */
export async function installFromLock(context: ClientContext): Promise<LockInstallSummary> {
  const tx = await InstallTransaction.open(context);
  for (const name of Object.keys(tx.config.data.community ?? {})) {
    if (!(name in tx.lock.packages)) {
      context.notice?.({
        level: "warning",
        text: `hookyard.json asks for ${name}, which hookyard.lock does not have: run \`hookyard install ${name}\``,
      });
    }
  }
  return tx.run(() => fillStore(context, tx), { write: false });
}

/** Moves each named package (none named: every installed one) to the highest version its range allows; see `UpdateOutcome.refused`. */
export async function update(
  context: ClientContext,
  names: readonly string[] | undefined,
  options: UpdateHow = {},
): Promise<UpdateOutcome[]> {
  const tx = await InstallTransaction.open(context);
  const chosen = names && names.length > 0 ? names : Object.keys(tx.lock.packages).sort();
  return tx.run(async () => {
    // The versions updated away from: their bytes are no longer what anything runs.
    tx.dropUnusedAfterCommit(chosen.map((name) => installedEntry(tx, name).integrity));
    const done: UpdateOutcome[] = [];
    for (const name of chosen) done.push(await updatePackage(context, tx, options, name));
    return done;
  });
}

/** Takes packages out of hookyard.json, hookyard.lock and the store; an unknown name changes nothing. */
export async function uninstall(context: ClientContext, names: readonly string[]): Promise<Uninstalled[]> {
  const tx = await InstallTransaction.open(context);
  return tx.run(async () => uninstallPackages(tx, names));
}

/** Grants an installed sandboxed package more of what it requests (never more than it requests). */
export function grant(
  context: ClientContext,
  name: string,
  grants: readonly string[],
): Promise<GrantsAfterChange> {
  return changeGrants(context, name, grants, "grant");
}

/** Takes grants back (`all`: every one). */
export function revoke(
  context: ClientContext,
  name: string,
  grants: readonly string[],
  options: { all?: boolean } = {},
): Promise<GrantsAfterChange> {
  return changeGrants(context, name, grants, "revoke", options);
}
