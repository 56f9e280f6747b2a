import { readFile } from "node:fs/promises";
import { join } from "node:path";
import validRange from "semver/ranges/valid.js";
import * as z from "zod";
import { RunnerError } from "../core/errors.js";
import { packageNameSchema } from "../package/manifest.js";
import { writeFileAtomic } from "./atomic-file.js";
import { configFileName } from "./root.js";

/**
 * hookyard.json, read once and written back whole. Its fields have two owners: the runner's
 * (`hooks`, `rules`, `sandbox`, whose entries runner/load/config.ts checks, since what an entry may say
 * is the runner's engines' business) and install's (`registry`, `keys`, `community`, checked here, for
 * the client). Each owner checks only its own fields, so a bad install field never stops a guard from
 * loading, and a bad entry never stops an install.
 */

/** Every top-level field this version knows; any other is a typo or a newer hookyard's, and is warned about. */
export const configFields = ["hooks", "rules", "sandbox", "registry", "keys", "community"];

/** A registry key pinned on first use: later installs from that registry must be signed by a pinned key. */
export const pinnedKeySchema = z.strictObject({
  keyId: z.string().min(1),
  publicKey: z.string().min(1),
});
export type PinnedKey = z.infer<typeof pinnedKeySchema>;

/** The fields of hookyard.json that `install` owns. */
export const installFieldsSchema = z.object({
  /** The registry this workspace installs from, unless --registry or HOOKYARD_REGISTRY say otherwise. */
  registry: z.url().optional(),
  /**
   * Pinned signing keys, by registry origin (`http://127.0.0.1:4873`): the first on first use, more
   * only when the user accepts a new one (--accept-key); versions signed by any of them verify.
   */
  keys: z.record(z.string(), z.array(pinnedKeySchema)).optional(),
  /** What the user asked for: package name → semver range (`hookyard.lock` holds what it resolved to). */
  community: z
    .record(
      packageNameSchema,
      z.string().refine((range) => validRange(range) !== null, "must be a semver range such as ^1.2.0"),
    )
    .optional(),
});
export type InstallFields = z.infer<typeof installFieldsSchema>;

export interface ConfigFile {
  file: string;
  /** The whole parsed object, every field as it is; each owner checks its own. */
  data: Record<string, unknown>;
  /** Whether the file existed (a missing file reads as `{}`). */
  existed: boolean;
  /** The data as read, to leave the file untouched (formatting and all) when nothing changed. */
  readonly snapshot: string;
}

/**
 * Reads `root`'s hookyard.json. Every command that reads it fails with the same code for the same
 * file (RUN_ERR_CONFIG_UNREADABLE, RUN_ERR_CONFIG_INVALID), its message naming the file.
 */
export async function readConfigFile(root: string): Promise<ConfigFile> {
  const file = join(root, configFileName);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { file, data: {}, existed: false, snapshot: "{}" };
    throw new RunnerError(
      "RUN_ERR_CONFIG_UNREADABLE",
      `${file} could not be read: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new RunnerError(
      "RUN_ERR_CONFIG_INVALID",
      `${file} is not valid JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new RunnerError("RUN_ERR_CONFIG_INVALID", `${file} must hold a JSON object`);
  }
  return { file, data: data as Record<string, unknown>, existed: true, snapshot: JSON.stringify(data) };
}

/** The text hookyard.json is written as: two-space JSON and a final newline. */
export function formatConfigFile(data: Record<string, unknown>): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Writes hookyard.json (atomically) if its data changed since it was read. */
export async function writeConfigFile(config: ConfigFile): Promise<void> {
  if (JSON.stringify(config.data) === config.snapshot) return;
  await writeFileAtomic(config.file, formatConfigFile(config.data));
}
