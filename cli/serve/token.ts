import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../workspace/atomic-file.js";
import { CliError, exitCodes } from "../errors.js";

/** A fresh token: 32 random bytes, recognisable by its prefix in a log or a settings file. */
export function newServeToken(): string {
  return `hys_${randomBytes(32).toString("base64url")}`;
}

/** The token in `file`, which only its owner may read (as for ssh keys). */
export async function readServeToken(file: string): Promise<string> {
  let mode: number;
  let text: string;
  try {
    mode = (await stat(file)).mode;
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliError(
      "CLI_ERR_SERVE_TOKEN",
      `cannot read the token file ${file}: ${(error as Error).message}`,
      exitCodes.error,
      { cause: error },
    );
  }
  if ((mode & 0o077) !== 0) {
    throw new CliError(
      "CLI_ERR_SERVE_TOKEN",
      `other users may read the token file ${file}: run chmod 600 ${file}`,
      exitCodes.security,
    );
  }
  const token = text.trim();
  if (token === "" || /\s/.test(token)) {
    throw new CliError(
      "CLI_ERR_SERVE_TOKEN",
      `the token file ${file} must hold the token alone, on one line`,
      exitCodes.error,
    );
  }
  return token;
}

/** Writes `token` to `file`, readable by its owner only. */
export async function writeServeToken(file: string, token: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFileAtomic(file, `${token}\n`, 0o600);
  } catch (error) {
    throw new CliError(
      "CLI_ERR_SERVE_TOKEN",
      `cannot write the token file ${file}: ${(error as Error).message}`,
      exitCodes.error,
      { cause: error },
    );
  }
}

/** Removes the token file only if it still holds our token: another daemon may have written its own since. */
export async function removeServeToken(file: string, token: string): Promise<void> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text?.trim() === token) await rm(file, { force: true });
}
