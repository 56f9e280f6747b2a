import { createHash, timingSafeEqual } from "node:crypto";

/** Whether an Authorization header carries `token`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "")?.[1];
  if (given === undefined) return false;
  // Hashing first gives equal lengths, so the comparison's time says nothing about the token.
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}
