import { build, type Plugin } from "esbuild";
import { ClientError } from "../errors.js";

/**
 * The modules `code` still loads: static imports, `export … from`, `require()` and `import()` of
 * a literal. An isolate has no module loader, so a package's bundle must load none. esbuild parses
 * it (never a regular expression over the text, which strings and comments would fool) and every
 * resolution is recorded instead of followed.
 */
export async function importsLeft(code: string, sourcefile: string): Promise<string[]> {
  const found = new Set<string>();
  const record: Plugin = {
    name: "record-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        found.add(args.path);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    stdin: { contents: code, sourcefile, loader: "js" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
    plugins: [record],
  }).catch(
    (error: { errors?: Array<{ text: string; location?: { line: number; column: number } | null }> }) => {
      const first = error.errors?.[0];
      if (!first) throw error;
      const at = first.location ? ` (line ${first.location.line}, column ${first.location.column + 1})` : "";
      throw new ClientError("CLI_ERR_BUNDLE", `${sourcefile} is not a JavaScript module: ${first.text}${at}`);
    },
  );
  return [...found].sort();
}
