import { statSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { main } from "./main.js";

/**
 * `hookyard --help` without commander: the top-level help as commander prints it to a pipe (80
 * columns, no colour), rendered once by `npm run build` into dist/cli/help.txt. bin/hookyard.js
 * prints it for `hookyard --help` (and `-h`) when stdout is not a terminal and the file's first line
 * still names this build of dist/cli/main.js; anything else goes through the CLI as before.
 */

/** Where the rendered help goes: dist/cli/help.txt, beside this module once built. */
export const helpCacheFile = fileURLToPath(new URL("./help.txt", import.meta.url));

/** What the file's first line must be: the size and mtime of the main.js that rendered it (tsc rewrites it on every build). */
export function helpCacheStamp(): string {
  const info = statSync(fileURLToPath(new URL("./main.js", import.meta.url)));
  return `hookyard-help ${info.size}:${info.mtimeMs}`;
}

/** Renders `hookyard --help` as commander prints it when stdout is not a terminal, and writes the cache. */
export async function writeHelpCache(): Promise<void> {
  let text = "";
  const stdout = {
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
    isTTY: false,
  };
  const code = await main(["--help"], {
    stdout: stdout as unknown as NodeJS.WritableStream,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  });
  if (code !== 0 || text === "") throw new Error(`hookyard --help exited ${code} with no help`);
  writeFileSync(helpCacheFile, `${helpCacheStamp()}\n${text}`);
}

// `node dist/cli/help-cache.js`, the last step of `npm run build`.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeHelpCache();
}
