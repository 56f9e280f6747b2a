import { rm } from "node:fs/promises";
import { PackageError } from "../../package/errors.js";
import { computeIntegrity } from "../../package/integrity.js";
import type { PackageManifest } from "../../package/manifest.js";
import { readPackage } from "../../package/read-package.js";
import { showPath, TarballError, tarballErrorMessages } from "../../package/tarball/errors.js";
import { extractPackage } from "../../package/tarball/extract.js";
import { defaultTarballLimits, inspectTarball } from "../../package/tarball/inspect.js";
import { requestedGrants } from "../../sandbox/capabilities.js";
import type { PinnedKey } from "../../workspace/config-file.js";
import { storePath } from "../../workspace/lockfile.js";
import { storeProblems } from "../../workspace/store-check.js";
import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";
import type { RegistryClient } from "../registry-client.js";
import { fileHashes } from "./file-hashes.js";
import { checkSignature, type SignedVersion } from "./registry-key.js";

export interface FetchedPackage {
  manifest: PackageManifest;
  /** What the package asks for, as grant strings, read from its verified manifest. */
  requested: string[];
  /** Each file with its hash, as the lockfile records them. */
  files: Record<string, string>;
  storeDir: string;
  /** Whether this call made the store folder (so a failed install can take it away again). */
  created: boolean;
}

/**
 * Gets one version into the store, trusting nothing on the way: the signature over
 * `name@version:integrity` is checked with the pinned key before the download, the downloaded
 * bytes must have that integrity, the tarball must pass the registry's own publish checks and
 * carry the manifest of that name and version, and only then are its files written (via a temp
 * folder and a rename). A store folder already there is reused only if it matches the bytes.
 */
export async function fetchPackage(
  context: ClientContext,
  client: RegistryClient,
  root: string,
  url: string,
  signed: SignedVersion,
  key: PinnedKey,
  signal: AbortSignal,
): Promise<FetchedPackage> {
  const id = `${signed.name}@${signed.version}`;
  checkSignature(key, signed);
  const progress = context.download?.(`downloading ${id}`) ?? { update() {}, done() {} };
  let bytes: Buffer;
  try {
    bytes = await client.download(url, defaultTarballLimits.maxGzipBytes, progress.update);
  } finally {
    progress.done();
  }
  const found = computeIntegrity(bytes);
  if (found !== signed.integrity) {
    throw new ClientError(
      "CLI_ERR_INTEGRITY",
      `the tarball of ${id} from ${url} has ${found}, but its signed integrity is ${signed.integrity}: the bytes were changed on the registry or on the way; nothing was installed`,
    );
  }
  let manifest: PackageManifest;
  let files: Record<string, string>;
  const storeDir = storePath(root, signed.integrity);
  let created: boolean;
  try {
    const contents = await inspectTarball(bytes);
    manifest = readPackage(contents, signed.name, signed.version).manifest;
    files = fileHashes(contents);
    const problems = await storeProblems(storeDir, files);
    if (problems.some((problem) => problem.kind !== "store-missing")) {
      // A damaged copy of these bytes: the verified download replaces it.
      await rm(storeDir, { recursive: true, force: true });
    }
    created = await extractPackage(contents, storeDir, signal);
  } catch (error) {
    if (error instanceof TarballError) {
      // Said for the one installing: the entry-by-entry remedy (chmod, pack again) is the
      // publisher's, and what this person can do is refuse the version and report it.
      const meaning = tarballErrorMessages[error.code];
      const entry = error.path === undefined ? "" : `: entry ${showPath(error.path)}`;
      throw new ClientError(
        "CLI_ERR_INTEGRITY",
        `${id} from ${client.url} was refused: ${meaning.charAt(0).toLowerCase()}${meaning.slice(1)}${entry} (${error.code}). ` +
          "Nothing was written. The registry should have refused it at publish: tell its operator, and do not install this version",
        { cause: error },
      );
    }
    if (error instanceof PackageError) {
      throw new ClientError(
        "CLI_ERR_INTEGRITY",
        `${id} is not a package hookyard can install safely: ${error.message} (${error.code}); nothing was installed`,
        { cause: error },
      );
    }
    throw error;
  }
  return {
    manifest,
    requested: requestedGrants(manifest.hookyard.capabilities, manifest.hookyard.effects),
    files,
    storeDir,
    created,
  };
}
