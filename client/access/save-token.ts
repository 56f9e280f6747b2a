import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../workspace/atomic-file.js";
import { readUserConfig, userConfigFile } from "./registry-settings.js";

type ConfigFile = Record<string, unknown> & { tokens?: Record<string, string> };

/**
 * Saves `token` for the registry at `origin` in the user config file, keeping everything else in
 * it. The file is replaced whole (never half-written), readable by the user only, in a folder
 * made for the user only. Returns the file's path.
 */
export async function saveToken(env: NodeJS.ProcessEnv, origin: string, token: string): Promise<string> {
  const { file, existing } = await readConfigFile(env);
  await writeConfigFile(file, { ...existing, tokens: { ...existing.tokens, [origin]: token } });
  return file;
}

/**
 * Removes the token saved for `origin`, keeping everything else, as `saveToken` writes. Returns the
 * file's path and whether it held a token for `origin` (when not, the file is left untouched).
 */
export async function removeToken(
  env: NodeJS.ProcessEnv,
  origin: string,
): Promise<{ file: string; removed: boolean }> {
  const { file, existing } = await readConfigFile(env);
  if (existing.tokens?.[origin] === undefined) return { file, removed: false };
  const { [origin]: _removed, ...tokens } = existing.tokens;
  await writeConfigFile(file, { ...existing, tokens });
  return { file, removed: true };
}

/** The file as it is, every field kept (not only those hookyard knows); `{}` when there is none. */
async function readConfigFile(env: NodeJS.ProcessEnv): Promise<{ file: string; existing: ConfigFile }> {
  const file = userConfigFile(env);
  // Refuses a file others may read or that is not a valid config, before anything changes.
  await readUserConfig(env);
  const existing: ConfigFile = await readFile(file, "utf8").then(
    (text) => JSON.parse(text),
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return {};
      throw error;
    },
  );
  return { file, existing };
}

async function writeConfigFile(file: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, 0o600);
}
