import { findWorkspaceRoot } from "../../workspace/root.js";
import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";
import { RegistryClient } from "../registry-client.js";
import { readWorkspaceConfigFile, type WorkspaceConfigFile } from "../workspace-config.js";
import { readUserConfig, resolveRegistryUrl, resolveToken } from "./registry-settings.js";
import { checkTokenText } from "./token-text.js";

/** The registry and token named by the caller (the CLI's --registry and --token); anything else is ignored. */
export interface RegistryFlags {
  registry?: unknown;
  token?: unknown;
}

/**
 * A client for the registry this command should talk to, found from --registry, the environment,
 * the workspace's hookyard.json and the user config, in that order. Only with `needToken` does it
 * carry a token (a missing one is an error that says where a token can come from).
 */
export async function registryAccess(
  context: Pick<ClientContext, "cwd" | "env">,
  options: RegistryFlags,
  access: { needToken?: boolean; signal?: AbortSignal; workspace?: WorkspaceConfigFile } = {},
): Promise<RegistryClient> {
  const user = await readUserConfig(context.env);
  // An install's transaction has read hookyard.json already.
  const workspace = access.workspace ?? (await readWorkspaceConfigFile(await findWorkspaceRoot(context.cwd)));
  const url = resolveRegistryUrl({
    flag: options.registry,
    env: context.env,
    workspace: workspace.data.registry,
    user,
  });
  // Reads are public: a token is sent only where one is needed, so none leaks to a registry it was not meant for.
  if (!access.needToken) return new RegistryClient(url, access.signal ? { signal: access.signal } : {});
  const token = resolveToken({ flag: options.token, env: context.env, user, registryUrl: url });
  // A cloned project's hookyard.json could name any registry: a token from the environment (a CI
  // secret) goes only where the user named the registry themselves.
  const namedByProject =
    typeof options.registry !== "string" &&
    !context.env.HOOKYARD_REGISTRY &&
    workspace.data.registry !== undefined;
  if (namedByProject && typeof options.token !== "string" && token === context.env.HOOKYARD_TOKEN) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `HOOKYARD_TOKEN is not sent to ${url}, which this project's hookyard.json names: pass --registry ${url} (or set HOOKYARD_REGISTRY) to confirm it is yours`,
    );
  }
  if (!token) {
    throw new ClientError(
      "CLI_ERR_TOKEN_MISSING",
      `no token for ${url}: pass --token, set HOOKYARD_TOKEN, or run \`hookyard login --registry ${url}\``,
    );
  }
  // Checked before any request: the HTTP library's own error for a bad header would quote the token.
  checkTokenText(token, "the registry token");
  return new RegistryClient(url, { token, ...(access.signal ? { signal: access.signal } : {}) });
}
