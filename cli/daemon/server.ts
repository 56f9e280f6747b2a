/**
 * The exec daemon's process: `node --no-node-snapshot dist/cli/daemon/server.js <root>`, started
 * detached by the exec client (cli/daemon/client.ts) when no daemon answers for a workspace; the daemon itself is
 * adapters/daemon/daemon.ts. Its
 * stdout and stderr are its log file.
 */
import { enableCompileCache } from "../../adapters/daemon/paths.js";

const root = process.argv[2];
if (!root) {
  process.stderr.write("usage: server.js <workspace root>\n");
  process.exitCode = 2;
} else {
  // Before the runner loads: a daemon's start is the first event's neighbour on the CPU.
  enableCompileCache();
  const [{ runDaemon }, { renderError }, { packageVersion }] = await Promise.all([
    import("../../adapters/daemon/daemon.js"),
    import("../error-message.js"),
    import("../package-root.js"),
  ]);
  // Nothing of a stopped daemon may linger: a hook's timer, a child it left.
  process.exit(await runDaemon(root, { renderError, version: packageVersion() }));
}
