import { storePath } from "../../workspace/lockfile.js";
import { describeStoreProblem, storeProblems } from "../../workspace/store-check.js";
import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";
import { RegistryClient } from "../registry-client.js";
import { fetchPackage } from "./fetch-package.js";
import type { InstallTransaction } from "./transaction.js";

/** The registry a lock entry came from: its tarball URL up to `/v1/packages/`. */
export function registryOfResolved(resolved: string): string {
  const at = resolved.indexOf("/v1/packages/");
  return at < 0 ? new URL(resolved).origin : resolved.slice(0, at);
}

export interface LockInstallSummary {
  fromStore: string[];
  downloaded: string[];
}

/**
 * `hookyard install` with no name, like `npm ci`: makes the store hold exactly what hookyard.lock
 * says and changes neither file. A package whose store folder matches the lock is left alone (so
 * this works offline); any other is downloaded from where the lock says, and must carry the lock's
 * integrity, a signature that verifies with the key pinned in hookyard.json, and the lock's files.
 * The first mismatch stops everything (a security ClientError) and removes what this run added.
 */
export async function installFromLock(
  context: ClientContext,
  tx: InstallTransaction,
): Promise<LockInstallSummary> {
  const summary: LockInstallSummary = { fromStore: [], downloaded: [] };
  for (const [name, entry] of Object.entries(tx.lock.packages).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const id = `${name}@${entry.version}`;
    const dir = storePath(tx.root, entry.integrity);
    const problems = await storeProblems(dir, entry.files);
    if (problems.length === 0) {
      summary.fromStore.push(id);
      continue;
    }
    const [first] = problems;
    if (first && first.kind !== "store-missing") {
      context.notice?.({
        level: "info",
        text: `the store copy of ${id} does not match hookyard.lock (${describeStoreProblem(first)}); downloading it again`,
      });
    }
    const registry = registryOfResolved(entry.resolved);
    const client = new RegistryClient(registry, { signal: tx.signal });
    const keys = tx.config.data.keys?.[client.origin] ?? [];
    const pinned = keys.find((key) => key.keyId === entry.keyId);
    if (keys.length === 0) {
      throw new ClientError(
        "CLI_ERR_SIGNATURE",
        `hookyard.json pins no signing key for ${client.origin}, so ${id} cannot be checked: run \`hookyard install ${name}@${entry.version}\` to pin the registry's key`,
      );
    }
    if (!pinned) {
      throw new ClientError(
        "CLI_ERR_KEY_CHANGED",
        `hookyard.lock says ${id} was signed by ${entry.keyId}, but hookyard.json pins only ${keys.map((k) => k.keyId).join(", ")} for ${client.origin}; if you trust that key, pin it with \`hookyard install ${name}@${entry.version} --accept-key ${entry.keyId}\``,
      );
    }
    const fetched = await fetchPackage(
      context,
      client,
      tx.root,
      entry.resolved,
      { name, ...entry },
      pinned,
      tx.signal,
    );
    if (fetched.created) tx.made(fetched.storeDir);
    const changed = Object.keys({ ...entry.files, ...fetched.files }).filter(
      (path) => entry.files[path] !== fetched.files[path],
    );
    if (changed.length > 0) {
      throw new ClientError(
        "CLI_ERR_INTEGRITY",
        `the files of ${id} differ from those hookyard.lock records (${changed.join(", ")}); the lock was edited by hand: re-install the package to record it again`,
      );
    }
    summary.downloaded.push(id);
  }
  return summary;
}
