import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, posix, relative, resolve } from "node:path";
import { computeIntegrity } from "../../package/integrity.js";
import { TarballError } from "../../package/tarball/errors.js";
import { type PackEntry, packTarball } from "../../package/tarball/pack.js";
import { BundleError, bundleHook } from "../../runner/load/bundle.js";
import { writeFileAtomic } from "../../workspace/atomic-file.js";
import { ClientError } from "../errors.js";
import { defaultEntries } from "./default-entries.js";
import { importsLeft } from "./imports-left.js";
import { readManifestFile } from "./manifest-file.js";
import type { PackageTarball } from "./tarball-package.js";

/** Besides package.json and the bundle, a package holds these top-level files only. */
const documentFile = /^(readme|license)/i;

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackedPackage extends PackageTarball {
  /** What the tarball holds, by path under package/, sorted. */
  files: PackedFile[];
  /** The source the bundle was built from; undefined when `hookyard.main` was packed as it is. */
  entry: string | undefined;
}

/**
 * Packs a hook package folder: checks package.json, bundles the source into `hookyard.main` (one
 * ES module, no imports), and builds the reproducible tarball of package.json, the bundle, README*
 * and LICENSE*. Nothing is written unless all of that succeeds, and then only the bundle.
 * `entry` is an absolute path; without it the first of `defaultEntries` that exists is used.
 */
export async function packPackage(dir: string, options: { entry?: string } = {}): Promise<PackedPackage> {
  const { bytes: manifestBytes, manifest } = await readManifestFile(dir);
  const main = posix.normalize(manifest.hookyard.main);
  const mainFile = join(dir, main);
  if (options.entry && !(await isFile(options.entry))) {
    throw new ClientError("CLI_ERR_USAGE", `--entry ${options.entry} is not a file`);
  }
  const entry = options.entry ?? (await firstFile(defaultEntries.map((path) => join(dir, path))));
  refuseOverwrite(main, entry, dir);

  const code = entry ? await bundle(entry, dir) : await readMain(mainFile, main, dir);
  const left = await importsLeft(code.toString("utf8"), main);
  if (left.length > 0) {
    throw new ClientError(
      "CLI_ERR_BUNDLE",
      `${main} still loads ${left.join(", ")}; a sandboxed hook must be one module with no imports (an isolate cannot load modules): add its source as src/hook.ts so pack bundles it`,
    );
  }
  const entries: PackEntry[] = [
    { path: "package.json", data: manifestBytes },
    { path: main, data: code },
    ...(await documents(dir)),
  ];
  let tarball: Buffer;
  try {
    tarball = await packTarball(entries);
  } catch (error) {
    if (!(error instanceof TarballError)) throw error;
    throw new ClientError(
      "CLI_ERR_TARBALL_INVALID",
      `${dir} cannot be packed: ${error.message} (${error.code})`,
      { cause: error },
    );
  }
  // Written last, once everything checked out: a failed pack leaves the old bundle in place.
  if (entry) {
    await mkdir(dirname(mainFile), { recursive: true });
    await writeFileAtomic(mainFile, code);
  }
  return {
    name: manifest.name,
    version: manifest.version,
    tarball,
    integrity: computeIntegrity(tarball),
    files: entries
      .map((e) => ({ path: e.path, size: Buffer.byteLength(e.data) }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
    entry,
  };
}

/** npm's file name for a package's tarball: `@acme/guard` 1.0.0 → `acme-guard-1.0.0.tgz`. */
export function tarballFileName(name: string, version: string): string {
  return `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/** The bundle is written over `main`: that must never be the author's source or another packed file. */
function refuseOverwrite(main: string, entry: string | undefined, dir: string): void {
  if (!main.includes("/") && (main === "package.json" || documentFile.test(main))) {
    throw new ClientError(
      "CLI_ERR_MANIFEST_INVALID",
      `hookyard.main is ${main}, which is not a bundle: set it to the file pack writes, such as dist/hook.js`,
    );
  }
  if (entry && resolve(entry) === resolve(dir, main)) {
    throw new ClientError(
      "CLI_ERR_MANIFEST_INVALID",
      `hookyard.main is ${main}, the source itself: the bundle would overwrite it; set main to dist/hook.js`,
    );
  }
}

async function bundle(entry: string, dir: string): Promise<Buffer> {
  try {
    // Relative to the package folder, so the bytes are the same wherever the folder is.
    return Buffer.from(await bundleHook(entry, "sandbox", { workingDir: dir }));
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    throw new ClientError("CLI_ERR_BUNDLE", `${relative(dir, entry)}: ${error.message}`, {
      cause: error,
    });
  }
}

/** With no source, `main` is packed as the author built it. */
async function readMain(mainFile: string, main: string, dir: string): Promise<Buffer> {
  try {
    return await readFile(mainFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    throw new ClientError(
      "CLI_ERR_BUNDLE",
      `nothing to pack in ${dir}: no source (${defaultEntries.join(", ")}) and no ${main} (hookyard.main): write src/hook.ts, or pass --entry <file>`,
    );
  }
}

/** The top-level README* and LICENSE* files. */
async function documents(dir: string): Promise<PackEntry[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && documentFile.test(entry.name))
    .map((entry) => entry.name);
  return Promise.all(names.map(async (name) => ({ path: name, data: await readFile(join(dir, name)) })));
}

async function firstFile(candidates: string[]): Promise<string | undefined> {
  for (const file of candidates) if (await isFile(file)) return file;
  return undefined;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}
