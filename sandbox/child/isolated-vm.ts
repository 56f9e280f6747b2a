import { createRequire } from "node:module";
import type IsolatedVM from "isolated-vm-7";
import { SandboxError } from "../errors.js";

/**
 * No one isolated-vm release ships binaries for every Node line hookyard supports: 6.2.0 has them
 * for Node 22 and 24, 7.0.1 for 24 and 26 (their APIs and .d.ts are the same). Both are installed,
 * under npm aliases, with their install scripts off (so no install ever tries to compile), and
 * this picks the one whose prebuilt binary matches the running Node's ABI.
 */
const releaseByAbi: Readonly<Record<string, string>> = {
  "127": "isolated-vm-6", // Node 22
  "137": "isolated-vm-7", // Node 24
  "147": "isolated-vm-7", // Node 26
};

function load(): typeof IsolatedVM {
  const abi = process.versions.modules;
  const release = releaseByAbi[abi];
  if (release === undefined) {
    throw new SandboxError(
      "SANDBOX_ERR_UNSUPPORTED_NODE",
      `the sandbox has no isolated-vm binary for Node ${process.versions.node} (ABI ${abi}): run hookyard on Node 22, 24 or 26`,
    );
  }
  return createRequire(import.meta.url)(release) as typeof IsolatedVM;
}

const ivm = load();
export default ivm;
