import type { RegistryToken } from "../../client/registry-client.js";
import { terminalLine } from "./terminal-text.js";

/** One token as people read it: id, scope, note, and how long it lasts; never its secret (the registry has none to give). */
export function tokenLine(token: RegistryToken): string {
  const note = token.description ? ` "${terminalLine(token.description)}"` : "";
  return `token ${terminalLine(token.id)}${note}: ${terminalLine(token.scope)} scope, ${tokenState(token)}`;
}

/** revoked, expired, or when it expires. */
export function tokenState(token: RegistryToken, now = Date.now()): string {
  if (token.revokedAt) return `revoked ${terminalLine(token.revokedAt)}`;
  if (!token.expiresAt) return "never expires";
  const expires = terminalLine(token.expiresAt);
  return Date.parse(token.expiresAt) <= now ? `expired ${expires}` : `expires ${expires}`;
}
