import { findWorkspaceRoot } from "../runner/load-hooks.js";
import type { CliContext, CommandOption } from "./command.js";
import { CliError } from "./errors.js";
import { RegistryClient } from "./registry-client.js";
import { readUserConfig, resolveRegistryUrl, resolveToken } from "./registry-settings.js";
import { checkTokenText } from "./token-text.js";
import { readWorkspaceConfigFile } from "./workspace/workspace-config.js";

/** The option every registry command takes. */
export const registryOption: CommandOption = {
  flags: "--registry <url>",
  description:
    "registry URL (default: $HOOKYARD_REGISTRY, hookyard.json's registry, the user config, http://127.0.0.1:4873)",
};

/** The option every command that writes to a registry takes; the token is never printed. */
export const tokenOption: CommandOption = {
  flags: "--token <token>",
  description: "registry token (default: $HOOKYARD_TOKEN, then the user config written by `hookyard login`)",
};

/**
 * A client for the registry this command should talk to, found from --registry, the environment,
 * the workspace's hookyard.json and the user config, in that order. With `needToken`, a missing
 * token is an error that says where a token can come from.
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
  const token = resolveToken({ flag: options.token, env: context.env, user, registryUrl: url });
  // Checked before any request: the HTTP library's own error for a bad header would quote the token.
  if (token) checkTokenText(token, "the registry token");
  if (access.needToken && !token) {
    throw new CliError(
      "CLI_ERR_TOKEN_MISSING",
      `no token for ${url}: pass --token, set HOOKYARD_TOKEN, or run \`hookyard login --registry ${url}\``,
    );
  }
  return new RegistryClient(url, {
    ...(token ? { token } : {}),
    ...(access.signal ? { signal: access.signal } : {}),
  });
}
