import { RegistryError } from "../errors.js";
import type { RegistryStore } from "../store.js";
import type { Principal } from "./rights.js";
import { hashToken } from "./tokens.js";

/**
 * The principal behind an `Authorization: Bearer <token>` header. Looked up in the store on every
 * request, so a revoked token fails at once.
 */
export async function authenticate(
  store: RegistryStore,
  header: string | undefined,
  now: Date,
): Promise<Principal> {
  if (!header) {
    throw new RegistryError(
      "REG_ERR_AUTH_REQUIRED",
      "this route needs a token: send it as `Authorization: Bearer <token>`",
    );
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match?.[1]) {
    throw new RegistryError("REG_ERR_AUTH_REQUIRED", "the Authorization header must be `Bearer <token>`");
  }
  const token = await store.findTokenByHash(hashToken(match[1]));
  if (!token) {
    throw new RegistryError(
      "REG_ERR_TOKEN_INVALID",
      "this registry does not know the token (check you are sending the right one to the right registry)",
    );
  }
  if (token.revokedAt) {
    throw new RegistryError(
      "REG_ERR_TOKEN_REVOKED",
      `the token ${token.id} was revoked at ${token.revokedAt}: use another token`,
    );
  }
  if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) {
    throw new RegistryError(
      "REG_ERR_TOKEN_EXPIRED",
      `the token ${token.id} expired at ${token.expiresAt}: make a new one`,
    );
  }
  return { tokenId: token.id, owner: token.owner, scope: token.scope };
}
