import type { Cleanup } from "../registry/cleanup.js";
import type { Peer } from "../registry/peer.js";
import { freePort } from "../registry/server-process.js";
import {
  addVerdaccioUser,
  startVerdaccio,
  verdaccioPeer,
  writeVerdaccioConfig,
} from "../registry/verdaccio/verdaccio.js";
import type { VerdaccioInstall } from "../registry/verdaccio/verdaccio-install.js";

/**
 * Verdaccio as the registry bench configures it (local storage, no uplinks, logs at warn), with a
 * user added the way `npm adduser` does, whose token publishes.
 */
export async function startVerdaccioRegistry(
  install: VerdaccioInstall,
  root: string,
  cleanup: Cleanup,
): Promise<Peer> {
  const port = await freePort();
  const config = await writeVerdaccioConfig(root);
  const server = await startVerdaccio(install, config, root, port, cleanup);
  return verdaccioPeer(server, await addVerdaccioUser(port));
}
