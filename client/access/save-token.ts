import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../workspace/atomic-file.js";
import { readUserConfig, userConfigFile } from "./registry-settings.js";

/**
 * Saves `token` for the registry at `origin` in the user config file, keeping everything else in
 * it. The file is replaced whole (never half-written), readable by the user only, in a folder
 * made for the user only. Returns the file's path.
 */
export async function saveToken(env: NodeJS.ProcessEnv, origin: string, token: string): Promise<string> {
  const file = userConfigFile(env);
  // Refuses a file others may read or that is not a valid config, before anything changes.
  await readUserConfig(env);
  const existing: Record<string, unknown> & { tokens?: Record<string, string> } = await readFile(
    file,
    "utf8",
  ).then(
    (text) => JSON.parse(text),
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return {};
      throw error;
    },
  );
  const config = { ...existing, tokens: { ...existing.tokens, [origin]: token } };
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`, 0o600);
  return file;
}
