import { readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import * as z from "zod";
import { ClientError } from "../errors.js";

/** `hookyard registry serve`'s default address: a registry on this machine, unless told otherwise. */
export const defaultRegistryUrl = "http://127.0.0.1:4873";

/** The per-user config file: `$HOOKYARD_CONFIG`, else `$XDG_CONFIG_HOME/hookyard/config.json`, else `~/.config/…`. */
export function userConfigFile(env: NodeJS.ProcessEnv): string {
  if (env.HOOKYARD_CONFIG) return env.HOOKYARD_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "hookyard", "config.json");
}

export const userConfigSchema = z.object({
  /** The registry used where a workspace names none. */
  registry: z.url().optional(),
  /** Tokens by registry origin (`http://127.0.0.1:4873`). */
  tokens: z.record(z.string(), z.string().min(1)).optional(),
});
export type UserConfig = z.infer<typeof userConfigSchema>;

/**
 * Reads the per-user config. It holds secrets, so a file that others may read (group or other
 * permission bits set) is refused rather than trusted: a leaked token is someone else's publish.
 */
export async function readUserConfig(env: NodeJS.ProcessEnv): Promise<UserConfig> {
  const file = userConfigFile(env);
  let text: string;
  try {
    const info = await stat(file);
    if (info.mode & 0o077) {
      throw new ClientError(
        "CLI_ERR_TOKEN_FILE",
        `${file} may be read by other users (mode ${(info.mode & 0o777).toString(8)}); it holds registry tokens: run chmod 600 ${file}`,
        { security: true },
      );
    }
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ClientError("CLI_ERR_TOKEN_FILE", `${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = userConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ");
    throw new ClientError("CLI_ERR_TOKEN_FILE", `${file}: ${issues}`);
  }
  return parsed.data;
}

/** A registry URL as typed: must be http(s); the trailing slash is dropped. */
export function normaliseRegistryUrl(text: string, from: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ClientError("CLI_ERR_USAGE", `${from} is not a URL: ${text}`);
  }
  // hookyard.lock records URLs and is meant to be committed: credentials go in a token, never in the URL.
  if (url.username || url.password) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `${from} holds a user name or password; leave them out and use a token (--token, HOOKYARD_TOKEN or hookyard login)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ClientError("CLI_ERR_USAGE", `${from} must be an http:// or https:// URL, not ${text}`);
  }
  return url.href.replace(/\/+$/, "");
}

/** Which registry to use: --registry, then $HOOKYARD_REGISTRY, then hookyard.json, then the user config, then the default. */
export function resolveRegistryUrl(sources: {
  flag?: unknown;
  env: NodeJS.ProcessEnv;
  workspace?: string | undefined;
  user?: UserConfig;
}): string {
  if (typeof sources.flag === "string") return normaliseRegistryUrl(sources.flag, "--registry");
  if (sources.env.HOOKYARD_REGISTRY)
    return normaliseRegistryUrl(sources.env.HOOKYARD_REGISTRY, "HOOKYARD_REGISTRY");
  if (sources.workspace) return normaliseRegistryUrl(sources.workspace, "hookyard.json's registry");
  if (sources.user?.registry)
    return normaliseRegistryUrl(sources.user.registry, "the user config's registry");
  return defaultRegistryUrl;
}

/** The token for `registryUrl`: --token, then $HOOKYARD_TOKEN, then the user config; undefined if none. */
export function resolveToken(sources: {
  flag?: unknown;
  env: NodeJS.ProcessEnv;
  user?: UserConfig;
  registryUrl: string;
}): string | undefined {
  if (typeof sources.flag === "string" && sources.flag !== "") return sources.flag;
  if (sources.env.HOOKYARD_TOKEN) return sources.env.HOOKYARD_TOKEN;
  return sources.user?.tokens?.[new URL(sources.registryUrl).origin];
}
