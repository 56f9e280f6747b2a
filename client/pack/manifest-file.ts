import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeIssues } from "../../core/errors.js";
import { type PackageManifest, packageManifestSchema, unsafeMatcher } from "../../package/manifest.js";
import { ClientError } from "../errors.js";

export interface ManifestFile {
  file: string;
  /** The file as it is on disk: it goes into the tarball unchanged. */
  bytes: Buffer;
  manifest: PackageManifest;
}

/** A package folder's package.json, checked as the registry will check it: every bad field is named, every matcher passes the regex policy. */
export async function readManifestFile(dir: string): Promise<ManifestFile> {
  const file = join(dir, "package.json");
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new ClientError(
      "CLI_ERR_MANIFEST_INVALID",
      `${dir} has no package.json: pack a hook package's folder (\`hookyard new <name>\` makes one)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ClientError(
      "CLI_ERR_MANIFEST_INVALID",
      `${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const parsed = packageManifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new ClientError(
      "CLI_ERR_MANIFEST_INVALID",
      `${file} is not a valid hook package manifest: ${describeIssues(parsed.error)}`,
    );
  }
  const unsafe = unsafeMatcher(parsed.data.hookyard);
  if (unsafe !== undefined) {
    // The registry's check (PKG_ERR_UNSAFE_MATCHER, REG_ERR_UNSAFE_MATCHER from a registry), before anything is bundled or uploaded.
    throw new ClientError("CLI_ERR_UNSAFE_MATCHER", `${file} has a matcher hookyard will not run: ${unsafe}`);
  }
  return { file, bytes, manifest: parsed.data };
}
