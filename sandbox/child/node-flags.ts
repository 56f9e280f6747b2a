import { SandboxError } from "../errors.js";

/**
 * isolated-vm asks for --no-node-snapshot in the process that makes isolates (it segfaulted on Node
 * 20 without it), and the flag cannot come through NODE_OPTIONS for worker threads: check the
 * command line before the first isolate, so the failure is a message rather than a crash.
 */
export function assertIsolateFlags(): void {
  if (process.execArgv.includes("--no-node-snapshot")) return;
  throw new SandboxError(
    "SANDBOX_ERR_NODE_FLAGS",
    'this process runs isolates but was started without --no-node-snapshot (isolated-vm asks for it): start it as `node --no-node-snapshot $(command -v hookyard) <command>`, or use process isolation ("sandbox": { "isolation": "process" } in hookyard.json, the default)',
  );
}
