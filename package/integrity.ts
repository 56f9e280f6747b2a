/** SRI sha512 of bytes, as npm and the lockfile write it: `sha512-<base64>`. */
export function computeIntegrity(bytes: Uint8Array): string {
  // Loaded on use: an event answered in the exec process with no community hook never needs it.
  const { createHash } = process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
  return `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
}

/** The hex digest inside an SRI string, used to name blobs; undefined if it is not sha512 SRI. */
export function integrityHex(integrity: string): string | undefined {
  const match = /^sha512-([A-Za-z0-9+/]{86}==)$/.exec(integrity);
  return match?.[1] ? Buffer.from(match[1], "base64").toString("hex") : undefined;
}

/** The SRI string for a blob name (the inverse of integrityHex). */
export function integrityFromHex(hex: string): string | undefined {
  return /^[0-9a-f]{128}$/.test(hex) ? `sha512-${Buffer.from(hex, "hex").toString("base64")}` : undefined;
}
