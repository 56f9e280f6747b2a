import { createHash } from "node:crypto";

/** A strong ETag for these bytes (or this text): equal content, equal tag. */
export function strongEtag(content: string | Uint8Array): string {
  return `"${createHash("sha256").update(content).digest("base64url")}"`;
}

/** If-None-Match against our strong ETag: `*`, or any listed tag (weak comparison, as for GET). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}
