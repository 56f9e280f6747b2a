import { posix } from "node:path";
import type { LockEntry } from "../../workspace/lockfile.js";
import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";
import type { RegistryClient, RegistryVersion } from "../registry-client.js";
import { fetchPackage } from "./fetch-package.js";
import { keyFor } from "./registry-key.js";
import type { InstallTransaction } from "./transaction.js";

export interface InstalledVersion {
  entry: Omit<LockEntry, "trust" | "grants">;
  requested: string[];
  storeDir: string;
}

/**
 * Puts one registry version into the store (signature, integrity and tarball checked), pinning
 * the registry's key on first use, and returns its lock entry without trust and grants: those are
 * the caller's decision.
 */
export async function installVersion(
  context: ClientContext,
  tx: InstallTransaction,
  client: RegistryClient,
  version: RegistryVersion,
  trust: { acceptKey?: string | undefined; yes?: boolean },
): Promise<InstalledVersion> {
  const keys = tx.config.data.keys ?? {};
  const pinned = keys[client.origin] ?? [];
  const { key, newPin } = await keyFor(client, pinned, version, trust.acceptKey);
  if (newPin && !trust.yes && context.approveKey && !(await context.approveKey(client.origin, key.keyId))) {
    throw new ClientError(
      "CLI_ERR_KEY_NOT_TRUSTED",
      `${client.origin}'s signing key ${key.keyId} was not trusted, so nothing was installed; once you have checked the id with the registry's operator, run the install again and answer y (or pass --yes)`,
    );
  }
  const resolved = client.tarballUrl(version.tarball);
  const fetched = await fetchPackage(context, client, tx.root, resolved, version, key, tx.signal);
  if (fetched.created) tx.made(fetched.storeDir);
  if (newPin) {
    tx.config.data.keys = { ...keys, [client.origin]: [...pinned, key] };
    tx.afterCommit(() =>
      context.notice?.({
        level: "info",
        text: `pinned ${client.origin}'s signing key ${key.keyId} in hookyard.json`,
      }),
    );
  }
  return {
    entry: {
      version: version.version,
      resolved,
      integrity: version.integrity,
      keyId: version.keyId,
      signature: version.signature,
      requested: fetched.requested,
      main: posix.normalize(fetched.manifest.hookyard.main),
      files: fetched.files,
    },
    requested: fetched.requested,
    storeDir: fetched.storeDir,
  };
}
