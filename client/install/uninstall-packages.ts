import { installedEntry } from "./installed.js";
import type { InstallTransaction } from "./transaction.js";

export interface Uninstalled {
  name: string;
  version: string;
}

/** `hookyard uninstall`: takes the packages out of hookyard.json and hookyard.lock; their store folders go once that is written. */
export function uninstallPackages(tx: InstallTransaction, names: readonly string[]): Uninstalled[] {
  // Every name is checked before anything changes: one unknown name leaves all of them installed.
  const entries = names.map((name) => ({ name, ...installedEntry(tx, name) }));
  tx.dropUnusedAfterCommit(entries.map((entry) => entry.integrity));
  for (const { name } of entries) {
    delete tx.lock.packages[name];
    if (tx.config.data.community) delete tx.config.data.community[name];
  }
  return entries.map(({ name, version }) => ({ name, version }));
}
