import { registryAccess } from "../../client/access/registry-access.js";
import { ClientError } from "../../client/errors.js";
import { type RegistryClient, registryErrorCode } from "../../client/registry-client.js";
import type { CliContext } from "../command.js";

/** What to do about a registry refusal, by its REG_ERR_* code; the registry's message says what went wrong. */
export type RefusalAdvice = Partial<Record<string, string>>;

/**
 * Runs `act` with a client for the registry the command names (--registry, HOOKYARD_REGISTRY,
 * hookyard.json, the user config) carrying its token (--token, HOOKYARD_TOKEN, `hookyard login`),
 * and adds to a refusal what to do about it: a token the registry does not take is the same
 * story for every command, the rest each command says in `advice`.
 */
export async function withRegistry<T>(
  context: CliContext,
  options: Record<string, unknown>,
  act: (client: RegistryClient) => Promise<T>,
  advice: RefusalAdvice = {},
): Promise<T> {
  const client = await registryAccess(context, options, { needToken: true });
  try {
    return await act(client);
  } catch (error) {
    throw explainRefusal(error, { ...tokenAdvice(client.url), ...advice });
  }
}

function tokenAdvice(registry: string): RefusalAdvice {
  const again = `run \`hookyard login --registry ${registry}\` with a valid token, or pass --token`;
  return {
    REG_ERR_AUTH_REQUIRED: again,
    REG_ERR_TOKEN_INVALID: again,
    REG_ERR_TOKEN_EXPIRED: again,
    REG_ERR_TOKEN_REVOKED: again,
  };
}

/** A refusal with its advice appended; any other error as it is. */
export function explainRefusal(error: unknown, advice: RefusalAdvice): unknown {
  const code = registryErrorCode(error);
  const say = code === undefined ? undefined : advice[code];
  if (!say || !(error instanceof ClientError)) return error;
  return new ClientError(error.code, `${error.message}: ${say}`, { cause: error.cause });
}
