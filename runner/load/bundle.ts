import { resolve } from "node:path";
import { build, type Plugin } from "esbuild";

/** `hookyard` inside a hook file is this tiny module: defineHook is an identity function. */
const hookyardShim: Plugin = {
  name: "hookyard-shim",
  setup(b) {
    b.onResolve({ filter: /^hookyard$/ }, () => ({ path: "hookyard", namespace: "hookyard-shim" }));
    b.onLoad({ filter: /.*/, namespace: "hookyard-shim" }, () => ({
      contents: "export const defineHook = (hook) => hook;",
      loader: "js",
    }));
  },
};

export class BundleError extends Error {
  override readonly name = "BundleError";
}

/**
 * Bundles a hook file into one ES module. `trusted` keeps npm packages and node builtins as imports
 * (a workspace hook runs in Node); `sandbox` inlines everything and refuses what cannot be inlined,
 * because an isolate has no module loader: the result has no imports at all.
 */
export async function bundleHook(
  file: string,
  target: "trusted" | "sandbox",
  options: BundleOptions = {},
): Promise<string> {
  return (await bundleHookWithInputs(file, target, options)).code;
}

export interface BundleOptions {
  sourcemap?: boolean;
  /** Paths in the bundle's comments are relative to it (default: the process's cwd): `hookyard pack` passes the package folder so the bytes do not depend on where it runs. */
  workingDir?: string;
}

/**
 * bundleHook, and every file the bundle was made from (absolute paths, from esbuild's metafile):
 * a bundle whose inputs are unchanged is the same bundle, so a cache keyed by them needs no build.
 */
export async function bundleHookWithInputs(
  file: string,
  target: "trusted" | "sandbox",
  options: BundleOptions = {},
): Promise<{ code: string; inputs: string[] }> {
  const sandbox = target === "sandbox";
  const result = await build({
    entryPoints: [file],
    bundle: true,
    format: "esm",
    platform: sandbox ? "neutral" : "node",
    target: sandbox ? "es2022" : "node20",
    ...(sandbox ? { mainFields: ["module", "main"] } : { packages: "external" as const }),
    write: false,
    logLevel: "silent",
    sourcemap: options.sourcemap ? "inline" : false,
    legalComments: sandbox ? "none" : "eof",
    plugins: [hookyardShim],
    metafile: true,
    ...(options.workingDir ? { absWorkingDir: options.workingDir } : {}),
  }).catch(
    (error: {
      errors?: Array<{ text: string; location?: { line: number; column: number; file: string } | null }>;
    }) => {
      const first = error.errors?.[0];
      if (!first) throw error;
      const at = first.location ? ` (line ${first.location.line}, column ${first.location.column + 1})` : "";
      const hint =
        sandbox && /Could not resolve "(node:)?[a-z_]+"/.test(first.text)
          ? "; a sandboxed hook cannot import Node modules: use the api argument (fs, net, process, env)"
          : "";
      throw new BundleError(`${first.text}${at}${hint}`);
    },
  );
  const output = result.outputFiles[0];
  if (!output) throw new BundleError("esbuild produced no output");
  const base = options.workingDir ?? process.cwd();
  const inputs = Object.keys(result.metafile?.inputs ?? {})
    // The shim (hookyard-shim:hookyard) is part of hookyard, not of the hook.
    .filter((input) => !/^[a-z-]+:/.test(input))
    .map((input) => resolve(base, input));
  return { code: output.text, inputs };
}
