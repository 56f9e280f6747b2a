import { readFileSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtinsOnUse, ownImportMetaUrl, packagesOnUse } from "./bundle-plugins.js";

/**
 * The exec client's in-process route as one script: `npm run build` bundles dist/cli/daemon/
 * in-process.js with the runner, the adapters, zod and semver into dist/cli/daemon/
 * exec-in-process.cjs. An event that no daemon answers (the first of a session) is answered in the
 * exec process, and loading some 300 modules one by one cost it more than the chain itself
 * (resolving, reading and linking each: about 150 ms of a 270 ms event on this 2-core machine).
 * Left out, and loaded only when used: esbuild (a hook file not yet in the cache), the native
 * addons (a sandboxed hook starts its own process), typescript and yaml.
 *
 * A script, not an ES module: the client runs it through vm.Script with a V8 code cache taken
 * after an event ran (in-process-script.ts), which holds the functions that event compiled; node's
 * own module cache holds only what compiled before the module ran. As a script it has no
 * `import()` and no `import.meta`: the client gives it its own `import()` (bundleImport, for
 * core/import-module.ts) and the script's URL (bundleUrl).
 *
 * The client runs it only while it is newer than in-process.js (a plain `tsc` after the build
 * rewrites that: the client then imports the modules, never an older bundle).
 */

export const inProcessFile = fileURLToPath(new URL("./in-process.js", import.meta.url));
export const inProcessBundleFile = fileURLToPath(new URL("./exec-in-process.cjs", import.meta.url));

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
    format: "cjs",
    platform: "node",
    target: "node22",
    logLevel: "warning",
    define: { "import.meta.url": "bundleUrl" },
    banner: { js: "const requireOnUse = require;" },
    plugins: [
      {
        name: "client-import",
        setup(on) {
          on.onLoad({ filter: /\/dist\/core\/import-module\.js$/ }, () => ({
            contents: "export const importModule = bundleImport;",
            loader: "js",
          }));
        },
      },
      packagesOnUse(loadedOnUse),
      builtinsOnUse,
      ownImportMetaUrl(inProcessBundleFile),
    ],
  });
  // A script has no import() of its own: one left in the bundle would fail when it ran (the hook
  // that needed it failing closed). Every import of a URL goes through core/import-module.ts.
  const dynamicImport = /(?<![\w$.])import\s*\((?!\s*\))/.exec(readFileSync(inProcessBundleFile, "utf8"));
  if (dynamicImport) {
    throw new Error(
      `${inProcessBundleFile} holds an import() at offset ${dynamicImport.index}: import URLs through core/import-module.ts`,
    );
  }
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
