import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { describeIssues, RunnerError } from "../core/errors.js";
import type { Trust } from "../core/hook.js";
import { integrityHex } from "../package/integrity.js";
import { packageNameSchema, packageVersionSchema } from "../package/manifest.js";
import { parseGrant } from "../sandbox/capabilities.js";
import { writeFileAtomic } from "./atomic-file.js";

/**
 * hookyard.lock: exactly which community hooks a workspace runs (DESIGN §7). `hookyard install`
 * writes it (through writeLockfile, when its transaction commits); the runner reads it and nothing else to find community hooks. Approval belongs to a
 * (name, integrity) pair: the grants and the trust level sit next to the integrity they were
 * given for.
 */
export const lockFileName = "hookyard.lock";

const integritySchema = z
  .string()
  .refine((value) => integrityHex(value) !== undefined, "must be an SRI sha512 integrity (sha512-…)");

const grantStringSchema = z.string().superRefine((text, ctx) => {
  const grant = parseGrant(text);
  if (typeof grant === "string") ctx.addIssue({ code: "custom", message: grant });
});

/** A path inside the package, as the registry's tarball checks let through. */
const packageFileSchema = z
  .string()
  .min(1)
  .refine(
    (p) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\\") && !p.includes("\0"),
  );

export const lockEntrySchema = z.strictObject({
  version: packageVersionSchema,
  /** The tarball's URL, absolute. */
  resolved: z.url(),
  /** SRI sha512 of the tarball: the store folder's name and the identity approvals belong to. */
  integrity: integritySchema,
  /** The registry key that signed `name@version:integrity`, and its base64 signature. */
  keyId: z.string().min(1),
  signature: z.string().min(1),
  /**
   * "sandboxed": runs in an isolate with `grants`; "trusted": runs in-process (said with --trust).
   * The file spells the sandboxed level "sandbox", as every hookyard.lock written so far does.
   */
  trust: z.enum(["sandbox", "trusted"]).transform((word): Trust => (word === "sandbox" ? "sandboxed" : word)),
  /** What the user granted: a subset of `requested`. */
  grants: z.array(grantStringSchema),
  /** What this version asks for (its manifest's ceiling), as grant strings. */
  requested: z.array(grantStringSchema),
  /** The bundle (`hookyard.main`), relative to the package root. */
  main: packageFileSchema,
  /** Every file of the package with its SRI sha512: what `verify` and the runner check the store against. */
  files: z.record(packageFileSchema, integritySchema),
});
export type LockEntry = z.output<typeof lockEntrySchema>;

export const lockfileSchema = z.strictObject({
  lockfileVersion: z.literal(1),
  packages: z.record(packageNameSchema, lockEntrySchema),
});
export type Lockfile = z.output<typeof lockfileSchema>;

export function emptyLockfile(): Lockfile {
  return { lockfileVersion: 1, packages: {} };
}

/** Reads hookyard.lock; undefined when there is none. A file that is not a valid lock is an error. */
export async function readLockfile(root: string): Promise<Lockfile | undefined> {
  const file = join(root, lockFileName);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new RunnerError("RUN_ERR_LOCK_INVALID", `${file} could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new RunnerError("RUN_ERR_LOCK_INVALID", `${file} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed = lockfileSchema.safeParse(data);
  if (!parsed.success)
    throw new RunnerError("RUN_ERR_LOCK_INVALID", `${file}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** The lockfile as written: sorted by name, two-space JSON, a final newline (stable diffs). */
export function formatLockfile(lock: Lockfile): string {
  const packages = Object.fromEntries(
    Object.entries(lock.packages)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, entry]) => [
        name,
        { ...entry, trust: entry.trust === "sandboxed" ? "sandbox" : entry.trust },
      ]),
  );
  return `${JSON.stringify({ lockfileVersion: 1, packages }, null, 2)}\n`;
}

/** Writes the lock as formatLockfile lays it out, atomically: a crash leaves the old lock or the new one. */
export async function writeLockfile(root: string, lock: Lockfile): Promise<void> {
  await writeFileAtomic(join(root, lockFileName), formatLockfile(lock));
}

/** `.hookyard/store/`: every installed package's files, in a folder named by its tarball's integrity. */
export function storeRoot(root: string): string {
  return join(root, ".hookyard", "store");
}

/** The store folder of the package with this tarball integrity. */
export function storePath(root: string, integrity: string): string {
  const hex = integrityHex(integrity);
  if (!hex) throw new RunnerError("RUN_ERR_LOCK_INVALID", `${integrity} is not an SRI sha512 integrity`);
  return join(storeRoot(root), hex);
}
