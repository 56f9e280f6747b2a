import { findWorkspaceRoot } from "../runner/workspace-root.js";
import type { CliContext } from "./command.js";
import { CliError } from "./errors.js";
import { RegistryClient } from "./registry-client.js";
import { readUserConfig, resolveRegistryUrl, resolveToken } from "./registry-settings.js";
import { checkTokenText } from "./token-text.js";
import { readWorkspaceConfigFile } from "./workspace/workspace-config.js";

/**
 * A client for the registry this command should talk to, found from --registry, the environment,
 * the workspace's hookyard.json and the user config, in that order. Only with `needToken` does it
 * carry a token (a missing one is an error that says where a token can come from).
 */
export async function registryAccess(
  context: CliContext,
  options: Record<string, unknown>,
  access: { needToken?: boolean; signal?: AbortSignal; root?: string } = {},
): Promise<RegistryClient> {
  const user = await readUserConfig(context.env);
  const root = access.root ?? (await findWorkspaceRoot(context.cwd));
  const workspace = await readWorkspaceConfigFile(root);
  const url = resolveRegistryUrl({
    flag: options.registry,
    env: context.env,
    workspace: workspace.data.registry,
    user,
  });
  // Reads are public: a token is sent only where one is needed, so none leaks to a registry it was not meant for.
  if (!access.needToken) return new RegistryClient(url, access.signal ? { signal: access.signal } : {});
  const token = resolveToken({ flag: options.token, env: context.env, user, registryUrl: url });
  if (!token) {
    throw new CliError(
      "CLI_ERR_TOKEN_MISSING",
      `no token for ${url}: pass --token, set HOOKYARD_TOKEN, or run \`hookyard login --registry ${url}\``,
    );
  }
  // Checked before any request: the HTTP library's own error for a bad header would quote the token.
  checkTokenText(token, "the registry token");
  return new RegistryClient(url, { token, ...(access.signal ? { signal: access.signal } : {}) });
}
