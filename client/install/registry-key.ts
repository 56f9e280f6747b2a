import { keyIdOf, signedMessage, verifySignature } from "../../package/signature.js";
import type { PinnedKey } from "../../workspace/config-file.js";
import { ClientError } from "../errors.js";
import type { RegistryClient } from "../registry-client.js";

/** What a version's signature is checked against: its text, and the key id that signed it. */
export interface SignedVersion {
  name: string;
  version: string;
  integrity: string;
  keyId: string;
  signature: string;
}

/**
 * The key to check `version` with. On first use the registry's key is fetched and pinned (the
 * caller writes the pin to hookyard.json with everything else); after that only pinned keys are
 * accepted: a registry that signs with another key is refused (exit 3) until the user pins that
 * key too, which `--accept-key <keyId>` does for exactly that key id. Old pins stay, so versions
 * already locked keep verifying.
 */
export async function keyFor(
  client: RegistryClient,
  pinned: readonly PinnedKey[],
  version: SignedVersion,
  acceptKey: string | undefined,
): Promise<{ key: PinnedKey; newPin: boolean }> {
  const known = pinned.find((key) => key.keyId === version.keyId);
  if (known) return { key: known, newPin: false };
  if (pinned.length > 0 && acceptKey !== version.keyId) {
    throw new ClientError(
      "CLI_ERR_KEY_CHANGED",
      `${version.name}@${version.version} is signed by key ${version.keyId}, but hookyard.json pins ${pinned.map((k) => k.keyId).join(", ")} for ${client.origin}. ` +
        `If the registry's operator told you the key changed, re-pin with --accept-key ${version.keyId}; otherwise do not install from this registry`,
    );
  }
  const offered = (await client.keys()).find((k) => k.keyId === version.keyId);
  if (!offered) {
    throw new ClientError(
      "CLI_ERR_SIGNATURE",
      `${version.name}@${version.version} names signing key ${version.keyId}, which ${client.url}/v1/keys does not list`,
    );
  }
  // Recomputed, so a listed key cannot claim another key's id.
  let actualId: string;
  try {
    actualId = keyIdOf(offered.publicKey);
  } catch {
    actualId = "";
  }
  if (actualId !== offered.keyId || offered.algorithm !== "ed25519") {
    throw new ClientError(
      "CLI_ERR_SIGNATURE",
      `${client.url}/v1/keys lists key ${offered.keyId} with a public key that is not an ed25519 key of that id`,
    );
  }
  return { key: { keyId: offered.keyId, publicKey: offered.publicKey }, newPin: true };
}

/** Checks the registry's ed25519 signature over `name@version:integrity`; exit 3 when it does not verify. */
export function checkSignature(key: PinnedKey, version: SignedVersion): void {
  const message = signedMessage(version.name, version.version, version.integrity);
  if (version.keyId !== key.keyId || !verifySignature(key.publicKey, message, version.signature)) {
    throw new ClientError(
      "CLI_ERR_SIGNATURE",
      `the registry's signature of ${version.name}@${version.version} does not verify with key ${key.keyId}: the metadata was changed after signing, or the key is wrong; nothing was installed`,
    );
  }
}
