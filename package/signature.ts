import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";

/** What the registry signs for each version: clients verify it against GET /v1/keys (DESIGN §7). */
export function signedMessage(name: string, version: string, integrity: string): string {
  return `${name}@${version}:${integrity}`;
}

/** Checks a signature as a client would; false for anything malformed. */
export function verifySignature(publicKeyPem: string, message: string, signature: string): boolean {
  try {
    return verify(
      null,
      Buffer.from(message),
      createPublicKey(publicKeyPem),
      Buffer.from(signature, "base64"),
    );
  } catch {
    return false;
  }
}

/** A key's id: `ed25519:` and the first 16 bytes (hex) of the sha256 of its SPKI DER. Clients recompute it. */
export function keyIdOf(publicKey: KeyObject | string): string {
  const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
  const der = key.export({ format: "der", type: "spki" });
  return `ed25519:${createHash("sha256").update(der).digest("hex").slice(0, 32)}`;
}
