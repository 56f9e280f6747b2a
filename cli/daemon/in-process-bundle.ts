import { statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtinsOnUse, ownImportMetaUrl, packagesOnUse, requireBanner } from "./bundle-plugins.js";

/**
 * The exec client's in-process route as one file: `npm run build` bundles dist/cli/daemon/
 * in-process.js with the runner, the adapters, zod and semver into dist/cli/daemon/
 * exec-in-process.js. An event that no daemon answers (the first of a session) is answered in the
 * exec process, and loading some 300 modules one by one cost it more than the chain itself
 * (resolving, reading and linking each: about 150 ms of a 270 ms event on this 2-core machine).
 * Left out, and loaded only when used: esbuild (a hook file not yet in the cache), the native
 * addons (a sandboxed hook starts its own process), typescript and yaml.
 *
 * The client loads the bundle only while it is newer than in-process.js (a plain `tsc` after the
 * build rewrites that: the client then loads the modules, never an older bundle).
 */

export const inProcessFile = fileURLToPath(new URL("./in-process.js", import.meta.url));
export const inProcessBundleFile = fileURLToPath(new URL("./exec-in-process.js", import.meta.url));

const loadedOnUse = [
  "esbuild",
  "typescript",
  "yaml",
  "isolated-vm",
  "isolated-vm-6",
  "isolated-vm-7",
  "better-sqlite3",
  "better-sqlite3-12",
  "better-sqlite3-13",
];

export async function writeInProcessBundle(): Promise<void> {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [inProcessFile],
    outfile: inProcessBundleFile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    logLevel: "warning",
    banner: { js: requireBanner },
    plugins: [packagesOnUse(loadedOnUse), builtinsOnUse, ownImportMetaUrl(inProcessBundleFile)],
  });
  if (statSync(inProcessBundleFile).mtimeMs < statSync(inProcessFile).mtimeMs) {
    throw new Error(
      `${inProcessBundleFile} is older than ${inProcessFile}: the exec client would not load it`,
    );
  }
}

// `node dist/cli/daemon/in-process-bundle.js`, a step of `npm run build`.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeInProcessBundle();
}
