import { BenchError } from "../errors.js";
import { checkPeer } from "../registry/check.js";
import { sendOnce } from "../registry/load/load.js";
import type { PackedVersion } from "../registry/packed-corpus.js";
import type { Peer } from "../registry/peer.js";

/**
 * Publishes the tarball over the peer's HTTP API (hookyard: PUT with the bearer token; Verdaccio:
 * the PUT `npm publish` sends), then checks the peer serves its document, its exact bytes and a
 * search hit, before anything is timed against it.
 */
export async function publishTo(peer: Peer, packed: PackedVersion): Promise<void> {
  const answer = await sendOnce(peer.server.port, peer.publishCall(packed));
  if (answer.status < 200 || answer.status >= 300) {
    throw new BenchError(
      "INSTALL_BENCH_ERR_PUBLISH",
      `${peer.label} answered ${answer.status} to the publish of ${packed.pkg.name}@${packed.version}: ${answer.body}`,
    );
  }
  await checkPeer(peer, [packed]);
}
