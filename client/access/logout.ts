import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";
import { RegistryClient, registryErrorCode } from "../registry-client.js";
import { type RegistryFlags, registryAccess } from "./registry-access.js";
import { readUserConfig } from "./registry-settings.js";
import { removeToken } from "./save-token.js";
import { checkTokenText } from "./token-text.js";

/** Refusals that mean the token is already dead on the registry: nothing is left to revoke. */
const deadTokenCodes = new Set(["REG_ERR_TOKEN_INVALID", "REG_ERR_TOKEN_REVOKED", "REG_ERR_TOKEN_EXPIRED"]);

export interface LogoutResult {
  registry: string;
  /** The user config file the token was saved in (or would have been). */
  file: string;
  /** Whether the file held a token for this registry (and now does not). */
  removed: boolean;
  /**
   * What became of the token on the registry: `revoked` (its id), `dead` (the registry no longer
   * took it: its REG_ERR_* code), `failed` (it could not be revoked: the error; it may still work),
   * or `kept` (asked not to revoke, or there was no token).
   */
  registryToken:
    | { state: "revoked"; id: string }
    | { state: "dead"; code: string }
    | { state: "failed"; error: ClientError }
    | { state: "kept" };
}

/**
 * Forgets the token `hookyard login` saved for the registry, and first (unless `revoke` is false)
 * revokes it there, as `npm logout` does: a token copied from the file before is dead too. A
 * failed revocation does not stop the removal: it is reported for the caller to say so.
 */
export async function logout(
  context: Pick<ClientContext, "cwd" | "env">,
  options: RegistryFlags,
  { revoke = true }: { revoke?: boolean } = {},
): Promise<LogoutResult> {
  // Only the registry: a --token or HOOKYARD_TOKEN is not what logout removes.
  const registry = (await registryAccess(context, { registry: options.registry })).url;
  const origin = new URL(registry).origin;
  const token = (await readUserConfig(context.env)).tokens?.[origin];
  const registryToken =
    token !== undefined && revoke ? await revokeOnRegistry(registry, token) : ({ state: "kept" } as const);
  const { file, removed } = await removeToken(context.env, origin);
  return { registry, file, removed, registryToken };
}

async function revokeOnRegistry(registry: string, token: string): Promise<LogoutResult["registryToken"]> {
  try {
    checkTokenText(token, "the saved token");
    const client = new RegistryClient(registry, { token });
    const { id } = await client.whoami();
    await client.revokeToken(id);
    return { state: "revoked", id };
  } catch (error) {
    const code = registryErrorCode(error);
    if (code !== undefined && deadTokenCodes.has(code)) return { state: "dead", code };
    if (error instanceof ClientError && error.code !== "CLI_ERR_INTERRUPTED")
      return { state: "failed", error };
    throw error;
  }
}
