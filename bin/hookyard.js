#!/usr/bin/env node
// No --no-node-snapshot: it slows every command's start, and only a process that makes isolates
// needs it. The sandbox process and the exec daemon are started with it; `inline` isolation in a
// process without it fails with SANDBOX_ERR_NODE_FLAGS, which names the fix.

// The sandbox's isolated-vm binaries and the registry's better-sqlite3 exist for these lines only:
// anywhere else the first isolate or database would crash the process, so say so up front.
const [major, minor] = process.versions.node.split(".").map(Number);
if (!((major === 22 && minor >= 12) || major === 24 || major === 26)) {
  process.stderr.write(
    `hookyard: Node ${process.versions.node} is not supported: install Node 22 (22.12 or later), 24 or 26 and run hookyard with it\n`,
  );
  process.exit(1);
}

// Not `import … from "node:fs"`: its ES module facade reads every export of fs, which loads
// fs.promises and the fs streams (a dozen modules, ~13 ms of every command, the agent's events too).
const { fstatSync, readFileSync, statSync, writeSync } = process.getBuiltinModule("node:fs");

const args = process.argv.slice(2);

/**
 * `hookyard --help` to a pipe or a file: the text commander printed for this build (`npm run build`
 * renders it into dist/cli/help.txt, cli/help-cache.ts), without loading the CLI. Anything else, a
 * terminal (its width), or a help.txt from another build of dist/cli/main.js: the CLI prints it.
 */
function cachedHelp() {
  try {
    if (fstatSync(1).isCharacterDevice()) return undefined;
    const main = statSync(new URL("../dist/cli/main.js", import.meta.url));
    const text = readFileSync(new URL("../dist/cli/help.txt", import.meta.url), "utf8");
    const stamp = `hookyard-help ${main.size}:${main.mtimeMs}\n`;
    return text.startsWith(stamp) ? text.slice(stamp.length) : undefined;
  } catch {
    return undefined;
  }
}

let helped = false;
if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
  const text = cachedHelp();
  if (text !== undefined) {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) {
      try {
        at += writeSync(1, bytes, at);
      } catch (error) {
        if (error.code === "EAGAIN") continue; // a non-blocking pipe that is full: its reader drains it
        if (error.code === "EPIPE") break; // a reader that went away gets nothing more, as from the CLI
        throw error;
      }
    }
    helped = true;
  }
}

/**
 * The exec client: the build's one-file bundle of it (cli/daemon/client-bundle.ts) while it is newer
 * than dist/cli/daemon/client.js, else that module and its imports.
 */
function clientModule() {
  const module = new URL("../dist/cli/daemon/client.js", import.meta.url);
  const bundle = new URL("../dist/cli/daemon/exec-client.js", import.meta.url);
  try {
    return statSync(bundle).mtimeMs >= statSync(module).mtimeMs ? bundle.href : module.href;
  } catch {
    return module.href;
  }
}

// The agent's command hook: a thin client of the workspace's daemon, answered before the CLI loads.
let answered = helped;
if (!answered && args.includes("exec")) {
  const client = await import(clientModule()).catch(() => undefined);
  answered = client !== undefined && (await client.execFromBin(args));
}

if (!answered) {
  const { runCli } = await import("../dist/cli/main.js");
  await runCli();
}
