import type { LockEntry } from "../../workspace/lockfile.js";
import { ClientError } from "../errors.js";
import type { InstallTransaction } from "./transaction.js";

/** The lock entry of an installed package, or an error that says what is installed. */
export function installedEntry(tx: InstallTransaction, name: string): LockEntry {
  const entry = tx.lock.packages[name];
  if (entry) return entry;
  const names = Object.keys(tx.lock.packages);
  throw new ClientError(
    "CLI_ERR_NOT_INSTALLED",
    `${name} is not installed in ${tx.root} (${names.length > 0 ? `installed: ${names.join(", ")}` : "hookyard.lock lists no community hooks"})`,
  );
}
