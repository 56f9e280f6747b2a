import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nameHash } from "../../adapters/daemon/paths.js";
import { importModule } from "../../core/import-module.js";
import type * as InProcess from "./in-process.js";

/**
 * Runs exec's in-process route (in-process.ts) from its bundle, exec-in-process.cjs
 * (in-process-bundle.ts), through vm.Script with a V8 code cache. The cache is taken after this
 * process answered its event, so it holds every function the event compiled: most of the bundle's
 * cost on a first event was compiling functions lazily as they first ran, which node's module cache
 * (taken before a module runs) does not save. One cache file per install, build and Node, in
 * `cacheDir` (compileCacheDir: the user's 0700 folder; none when undefined); V8 refuses one that
 * does not fit, and a new one is taken.
 *
 * Undefined when the bundle is missing or older than in-process.js (a plain `tsc` after the build):
 * the client then imports the modules.
 */
export function runInProcessBundle(
  cacheDir: string | undefined,
): { exports: typeof InProcess; saveCache(): void } | undefined {
  const url = new URL("./exec-in-process.cjs", import.meta.url);
  const file = fileURLToPath(url);
  let source: string;
  // Which install (its path: two installs used in turn keep a cache each) and which build of it,
  // without hashing a megabyte (the bundle's inode, size and time).
  const prefix = `exec-in-process-${process.version}-${process.arch}-${nameHash(file).slice(0, 12)}-`;
  let cacheFile: string | undefined;
  try {
    const bundle = statSync(file);
    if (bundle.mtimeMs < statSync(new URL("./in-process.js", import.meta.url)).mtimeMs) return undefined;
    source = readFileSync(file, "utf8");
    const build = `${bundle.ino}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}`;
    cacheFile = cacheDir && join(cacheDir, `${prefix}${build}.v8`);
  } catch {
    return undefined;
  }
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // none yet: this event compiles, and leaves one
  }
  // Loaded here, not by the client's every event: most are answered by the daemon.
  const { Script } = process.getBuiltinModule("node:vm") as typeof import("node:vm");
  const { createRequire } = process.getBuiltinModule("node:module") as typeof import("node:module");
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, bundleUrl, bundleImport) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as typeof InProcess };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    fileURLToPath(new URL(".", url)),
    url.href,
    importModule,
  );
  const fresh = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    saveCache: () => {
      if (fresh && cacheFile) writeCache(cacheFile, prefix, script.createCachedData());
    },
  };
}

/**
 * Written whole or not at all (another exec may read it at once), and this install's other builds'
 * caches (`prefix`) removed. Synchronous, not workspace/atomic-file.ts: that loads node:fs/promises
 * into the client, which every event loads.
 */
function writeCache(cacheFile: string, prefix: string, data: Buffer): void {
  const dir = dirname(cacheFile);
  const partial = `${cacheFile}.${process.pid}.partial`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, data, { mode: 0o600 });
    renameSync(partial, cacheFile);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(prefix) && name.endsWith(".v8") && name !== basename(cacheFile)) {
        rmSync(join(dir, name), { force: true });
      }
    }
  } catch {
    // no cache: the next first event compiles again
    rmSync(partial, { force: true });
  }
}
