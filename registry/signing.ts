import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from "node:crypto";
import { chmod, open, readFile, rename, rm } from "node:fs/promises";
import { keyIdOf } from "../package/signature.js";
import { RegistryError } from "./errors.js";

export interface Signer {
  /** `ed25519:` and the first 16 bytes (hex) of the sha256 of the public key's SPKI DER. */
  keyId: string;
  publicKeyPem: string;
  /** base64 ed25519 signature of the UTF-8 message. */
  sign(message: string): string;
}

/** Loads the key at `file`, or on first start generates one and writes it there with mode 0600. */
export async function loadOrCreateSigner(file: string): Promise<Signer> {
  let pem: string;
  try {
    pem = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw unreadable(file, error);
    pem = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    await writePrivate(file, pem);
  }
  return signerFromPem(file, pem);
}

/**
 * The key every process on a shared database signs with: stored in the database by the first
 * process that starts (registry_settings), read by the others, so one key id signs everything.
 */
export async function loadOrCreateSharedSigner(
  setting: (create: () => string) => Promise<string | undefined>,
): Promise<Signer | undefined> {
  const pem = await setting(() =>
    generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  );
  return pem === undefined ? undefined : signerFromPem("(the database's signing_key setting)", pem);
}

function signerFromPem(file: string, pem: string): Signer {
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw unreadable(file, error);
  }
  if (privateKey.asymmetricKeyType !== "ed25519") throw unreadable(file, new Error("not an ed25519 key"));
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: keyIdOf(publicKey),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    sign: (message) => sign(null, Buffer.from(message), privateKey).toString("base64"),
  };
}

/** Written whole or not at all: a half-written key would make every later start fail. */
export async function writePrivate(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await chmod(temp, 0o600);
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function unreadable(file: string, cause: unknown): RegistryError {
  return new RegistryError(
    "REG_ERR_SIGNING_KEY",
    `the signing key ${file} cannot be used: ${(cause as Error).message} (restore it from a backup; deleting it makes a new key, and clients that pinned the old key id will refuse new signatures)`,
    { cause },
  );
}
