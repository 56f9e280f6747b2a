import { readFile } from "node:fs/promises";
import { join } from "node:path";
import semver from "semver";
import { z } from "zod";
import { packageNameSchema } from "../package/manifest.js";
import { writeFileAtomic } from "../workspace/atomic-file.js";
import { configFileName } from "../workspace/root.js";
import { ClientError } from "./errors.js";

/** A registry key pinned on first use: later installs from that registry must be signed by a pinned key. */
export const pinnedKeySchema = z.strictObject({
  keyId: z.string().min(1),
  publicKey: z.string().min(1),
});
export type PinnedKey = z.infer<typeof pinnedKeySchema>;

/** The fields of hookyard.json that `install` owns; the runner's own fields are kept as they are. */
const installFieldsSchema = z.object({
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
      z
        .string()
        .refine((range) => semver.validRange(range) !== null, "must be a semver range such as ^1.2.0"),
    )
    .optional(),
});
export type InstallFields = z.infer<typeof installFieldsSchema>;

/** hookyard.json as `install` reads and rewrites it: every other field survives unchanged. */
export interface WorkspaceConfigFile {
  file: string;
  /** The whole parsed file; the install fields are validated. */
  data: Record<string, unknown> & InstallFields;
  /** Whether the file existed. */
  existed: boolean;
  /** The data as read, to leave the file untouched (formatting and all) when nothing changed. */
  readonly snapshot: string;
}

export async function readWorkspaceConfigFile(root: string): Promise<WorkspaceConfigFile> {
  const file = join(root, configFileName);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { file, data: {}, existed: false, snapshot: "{}" };
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ClientError(
      "CLI_ERR_WORKSPACE_INVALID",
      `${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ClientError("CLI_ERR_WORKSPACE_INVALID", `${file} must hold a JSON object`);
  }
  const parsed = installFieldsSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ");
    throw new ClientError("CLI_ERR_WORKSPACE_INVALID", `${file}: ${issues}`);
  }
  return { file, data: data as WorkspaceConfigFile["data"], existed: true, snapshot: JSON.stringify(data) };
}

/** The text hookyard.json is written as: two-space JSON and a final newline. */
export function formatWorkspaceConfig(data: Record<string, unknown>): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Writes hookyard.json if its data changed since it was read. */
export async function writeWorkspaceConfigFile(config: WorkspaceConfigFile): Promise<void> {
  if (JSON.stringify(config.data) === config.snapshot) return;
  await writeFileAtomic(config.file, formatWorkspaceConfig(config.data));
}
