import { BenchError } from "../errors.js";
import { sendOnce } from "./load/load.js";
import type { PackedVersion } from "./packed-corpus.js";
import type { Peer } from "./peer.js";
import type { RunningServer } from "./server-process.js";

/**
 * Before anything is timed, each peer must serve what was seeded, from every one of its processes:
 * a package document naming every version with its integrity, the exact tarball bytes, and the
 * package among the hits for its name. A bench that measured 404s quickly would be worse than none.
 */
export async function checkPeer(peer: Peer, versions: readonly PackedVersion[]): Promise<void> {
  for (const server of peer.servers) await checkServer(peer, server, versions);
}

async function checkServer(
  peer: Peer,
  server: RunningServer,
  versions: readonly PackedVersion[],
): Promise<void> {
  const first = versions[0] as PackedVersion;
  const name = first.pkg.name;
  const fail = (what: string) =>
    new BenchError("BENCH_ERR_CHECK", `${server.label} ${what}; server output:\n${server.output().trim()}`);
  const get = (path: string) => sendOnce(server.port, { method: "GET", path });

  const doc = await get(peer.metadataPath(name));
  if (doc.status !== 200) throw fail(`answered ${doc.status} to the document of ${name}: ${doc.body}`);
  const text = doc.body.toString();
  for (const v of versions) {
    if (!text.includes(`"${v.version}"`) || !text.includes(v.integrity)) {
      throw fail(`serves a document of ${name} without ${v.version} and its integrity ${v.integrity}`);
    }
  }

  const last = versions[versions.length - 1] as PackedVersion;
  const tarball = await get(peer.tarballPath(name, last.version));
  if (tarball.status !== 200 || !tarball.body.equals(last.tarball)) {
    throw fail(`did not serve the seeded bytes of ${name}@${last.version} (status ${tarball.status})`);
  }

  const search = await get(peer.searchPath(name));
  if (search.status !== 200 || !search.body.toString().includes(`"${name}"`)) {
    throw fail(`did not find ${name} when searching for it (status ${search.status}): ${search.body}`);
  }
}
