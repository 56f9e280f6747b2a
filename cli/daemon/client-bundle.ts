import { statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { builtinsOnUse } from "./bundle-plugins.js";

/**
 * The exec client as one file: `npm run build` bundles dist/cli/daemon/client.js and the few small
 * modules it imports (paths, protocol, refusal, the Claude event table, the workspace root) into
 * dist/cli/daemon/exec-client.js, because each ES module node loads costs the agent's every event
 * about a millisecond. What the client imports only when it runs the chain itself (the exec
 * command, the error renderer: in-process.ts) is a bundle of its own (in-process-bundle.ts).
 *
 * bin/hookyard.js loads the bundle only while it is newer than client.js (a plain `tsc` after the
 * build rewrites client.js: the bin then loads client.js, never an older bundle).
 */

export const clientFile = fileURLToPath(new URL("./client.js", import.meta.url));
export const bundleFile = fileURLToPath(new URL("./exec-client.js", import.meta.url));

export async function writeClientBundle(): Promise<void> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [clientFile],
    outfile: bundleFile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node22",
    packages: "external",
    logLevel: "warning",
    metafile: true,
    plugins: [
      {
        // What the client imports only to run the chain itself stays outside (in-process-bundle.ts).
        name: "dynamic-imports-outside",
        setup(on) {
          on.onResolve({ filter: /.*/ }, (args) =>
            args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined,
          );
        },
      },
      builtinsOnUse,
    ],
  });
  const inputs = Object.keys(result.metafile.inputs);
  if (inputs.some((input) => input.includes("node_modules"))) {
    throw new Error(`the exec client bundle would hold a dependency: ${inputs.join(", ")}`);
  }
  if (statSync(bundleFile).mtimeMs < statSync(clientFile).mtimeMs) {
    throw new Error(`${bundleFile} is older than ${clientFile}: the bin would not load it`);
  }
}

// `node dist/cli/daemon/client-bundle.js`, a step of `npm run build`.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeClientBundle();
}
