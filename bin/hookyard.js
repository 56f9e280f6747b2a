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

const args = process.argv.slice(2);

// The agent's command hook: a thin client of the workspace's daemon, answered before the CLI loads.
let answered = false;
if (args.includes("exec")) {
  const client = await import("../dist/cli/daemon/client.js").catch(() => undefined);
  answered = client !== undefined && (await client.execFromBin(args));
}

if (!answered) {
  const { runCli } = await import("../dist/cli/main.js");
  await runCli();
}
