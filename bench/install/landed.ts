import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { computeIntegrity } from "../../package/integrity.js";
import { lockFileName, readLockfile, storePath } from "../../workspace/lockfile.js";
import { BenchError } from "../errors.js";
import { type BenchPackage, bundlePath } from "./hook-package.js";

/**
 * After each timed install, the package must really be there, or the time means nothing: the
 * lock (hookyard.lock, package-lock.json) names the version with the tarball's integrity, and the
 * installed bundle holds exactly the packed bytes.
 */

function notLanded(tool: string, dir: string, what: string): BenchError {
  return new BenchError("INSTALL_BENCH_ERR_NOT_LANDED", `${tool} exited 0 in ${dir}, but ${what}`);
}

async function bundleIntegrity(file: string): Promise<string | undefined> {
  try {
    return computeIntegrity(await readFile(file));
  } catch {
    return undefined;
  }
}

/** hookyard.lock pins the version and integrity, and the store folder named by it holds the bundle. */
export async function checkHookyardInstall(workspace: string, pkg: BenchPackage): Promise<void> {
  const name = pkg.packed.pkg.name;
  const version = pkg.packed.version;
  const fail = (what: string) => notLanded("hookyard install", workspace, what);
  const entry = (await readLockfile(workspace))?.packages[name];
  if (!entry) throw fail(`${lockFileName} has no entry for ${name}`);
  if (entry.version !== version || entry.integrity !== pkg.packed.integrity) {
    throw fail(
      `${lockFileName} pins ${name}@${entry.version} ${entry.integrity}, not ${version} ${pkg.packed.integrity}`,
    );
  }
  if (entry.files[bundlePath] !== pkg.bundleIntegrity) {
    throw fail(
      `${lockFileName} records ${entry.files[bundlePath]} for ${bundlePath}, not ${pkg.bundleIntegrity}`,
    );
  }
  const bundle = join(storePath(workspace, pkg.packed.integrity), bundlePath);
  const found = await bundleIntegrity(bundle);
  if (found !== pkg.bundleIntegrity) {
    throw fail(`${bundle} ${found ? `has ${found}, not ${pkg.bundleIntegrity}` : "is missing"}`);
  }
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** node_modules/<name> holds the version and the bundle, and package-lock.json pins the integrity. */
export async function checkNpmInstall(project: string, pkg: BenchPackage): Promise<void> {
  const name = pkg.packed.pkg.name;
  const version = pkg.packed.version;
  const fail = (what: string) => notLanded("npm install", project, what);
  const installed = join(project, "node_modules", name);
  const manifest = await readJson(join(installed, "package.json"));
  if (manifest?.version !== version) {
    throw fail(
      `${join(installed, "package.json")} ${manifest ? `says version ${manifest.version}, not ${version}` : "is missing or unreadable"}`,
    );
  }
  const lock = await readJson(join(project, "package-lock.json"));
  const packages = lock?.packages as Record<string, { version?: string; integrity?: string }> | undefined;
  const entry = packages?.[`node_modules/${name}`];
  if (entry?.version !== version || entry.integrity !== pkg.packed.integrity) {
    throw fail(
      `package-lock.json pins ${entry ? `${entry.version} ${entry.integrity}` : "nothing"} for ${name}, not ${version} ${pkg.packed.integrity}`,
    );
  }
  const found = await bundleIntegrity(join(installed, bundlePath));
  if (found !== pkg.bundleIntegrity) {
    throw fail(
      `${join(installed, bundlePath)} ${found ? `has ${found}, not ${pkg.bundleIntegrity}` : "is missing"}`,
    );
  }
}
