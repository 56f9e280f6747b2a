#!/usr/bin/env node
// No --no-node-snapshot: it slows every command's start, and only a process that makes isolates
// needs it. The sandbox process and the exec daemon are started with it; `inline` isolation in a
// process without it fails with SANDBOX_ERR_NODE_FLAGS, which names the fix.
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
