import { readFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { dirname, relative } from "node:path";
import type { Plugin } from "esbuild";

/**
 * `import … from "node:fs"` in an ES module builds its facade, which reads every export, fs.promises
 * and the fs streams too (a dozen internal modules, ~13 ms): a bundle takes each builtin as
 * process.getBuiltinModule gives it, reads only what it uses, and loads it only when the module
 * that imports it first runs.
 */
export const builtinsOnUse: Plugin = {
  name: "builtins-on-use",
  setup(on) {
    on.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      isBuiltin(args.path)
        ? {
            path: args.path.startsWith("node:") ? args.path : `node:${args.path}`,
            namespace: "builtin",
            sideEffects: false,
          }
        : undefined,
    );
    on.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/**
 * Packages a bundle leaves out (native addons, esbuild, typescript: big, and needed only on some
 * paths), loaded with require when the module that imports them first runs, not when the bundle
 * loads: an external `import` would be hoisted to the bundle's top and load them on every event.
 * The bundle defines `requireOnUse` (a require that resolves from beside it).
 */
export function packagesOnUse(names: readonly string[]): Plugin {
  const filter = new RegExp(
    `^(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(/.*)?$`,
  );
  return {
    name: "packages-on-use",
    setup(on) {
      on.onResolve({ filter }, (args) => ({ path: args.path, namespace: "on-use", sideEffects: false }));
      on.onLoad({ filter: /.*/, namespace: "on-use" }, (args) => ({
        // Not `require(…)`: esbuild would resolve that through this plugin again, to this module.
        contents: `module.exports = requireOnUse(${JSON.stringify(args.path)});`,
        loader: "js",
      }));
    },
  };
}

/**
 * Each bundled file of dist/ keeps its own `import.meta.url` (the files it finds beside it: the
 * sandbox's entry, the guest bootstrap, the package root), as a URL relative to the bundle, so the
 * build can be moved or installed anywhere.
 */
export function ownImportMetaUrl(outfile: string): Plugin {
  return {
    name: "own-import-meta-url",
    setup(on) {
      on.onLoad({ filter: /\/dist\/.*\.js$/ }, async (args) => {
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return { contents: text, loader: "js" };
        const fromBundle = JSON.stringify(relative(dirname(outfile), args.path));
        return {
          contents: text.replaceAll("import.meta.url", `new URL(${fromBundle}, import.meta.url).href`),
          loader: "js",
        };
      });
    },
  };
}
