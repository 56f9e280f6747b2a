/**
 * The registry against Verdaccio, side by side in one run (issue 4): 10,000 synthetic hook
 * packages x 5 versions loaded into both, then package-document GETs, tarball GETs, searches and
 * publishes of new versions, each through the same load generator over real HTTP on 127.0.0.1.
 * Goals: metadata >= 10x Verdaccio and >= 12,000 req/s, tarball >= 5x, search p50 <= 5 ms,
 * publish p50 <= 15 ms.
 */
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkPeer } from "./registry/check.js";
import { withCleanup } from "./registry/cleanup.js";
import { corpusPackages, searchQueries } from "./registry/corpus.js";
import { seedHookyard } from "./registry/hookyard/hookyard-seed.js";
import { hookyardPeer, startHookyard } from "./registry/hookyard/hookyard-server.js";
import { mapLimit } from "./registry/map-limit.js";
import { packCorpus, packVersion } from "./registry/packed-corpus.js";
import { measureCeiling, measurePeers } from "./registry/scenarios.js";
import { freePort } from "./registry/server-process.js";
import { footerLines, registryTable } from "./registry/table.js";
import {
  addVerdaccioUser,
  seedVerdaccio,
  startVerdaccio,
  verdaccioPeer,
  writeVerdaccioConfig,
} from "./registry/verdaccio/verdaccio.js";
import { ensureVerdaccio, verdaccioVersion } from "./registry/verdaccio/verdaccio-install.js";

const packageCount = 10_000;
const versionsPerPackage = 5;
const queryCount = 300;
/** More than either peer can publish one at a time in the warm-up plus the measured seconds. */
const publishCount = 3_000;

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

export async function run(): Promise<void> {
  const started = performance.now();
  // Progress goes to stderr, so stdout holds only the report.
  const log = (line: string) => console.error(`[${seconds(started).padStart(7)}] ${line}`);
  await withCleanup(async (cleanup) => {
    // npm works on its own process while this one packs.
    const installing = ensureVerdaccio(log, cleanup.signal);
    installing.catch(() => {});

    const packages = corpusPackages(packageCount, versionsPerPackage);
    const corpus = await packCorpus(
      packages,
      (done, total) => log(`packed ${done}/${total} tarballs`),
      cleanup.signal,
    );
    // Version 2.0.0 of distinct packages, spread over the corpus: a new version of a known package.
    const publishes = await mapLimit(
      Array.from({ length: publishCount }, (_, i) => packages[(i * 7_919) % packages.length]),
      8,
      (pkg) => packVersion(pkg as (typeof packages)[number], "2.0.0"),
      cleanup.signal,
    );
    const queries = searchQueries(packages, queryCount);

    const root = await mkdtemp(join(tmpdir(), "hookyard-bench-registry-"));
    cleanup.dir(root);
    const verdaccioRoot = join(root, "verdaccio");
    await mkdir(verdaccioRoot);
    const verdaccioPort = await freePort();
    const hookyardPort = await freePort();
    const config = await writeVerdaccioConfig(verdaccioRoot);

    const seeding = performance.now();
    const [token] = await Promise.all([
      seedHookyard(
        join(root, "hookyard"),
        corpus,
        (done, total) => log(`hookyard: seeded ${done}/${total} versions`),
        cleanup.signal,
      ),
      seedVerdaccio(join(verdaccioRoot, "storage"), corpus, verdaccioPort, cleanup.signal).then(() =>
        log(`Verdaccio: seeded ${corpus.length} packages on disk`),
      ),
    ]);
    log(`seeded both in ${seconds(seeding)}`);

    const install = await installing;
    const hookyard = hookyardPeer(await startHookyard(join(root, "hookyard"), hookyardPort, cleanup), token);
    const verdaccioServer = await startVerdaccio(install, config, verdaccioRoot, verdaccioPort, cleanup);
    const verdaccio = verdaccioPeer(verdaccioServer, await addVerdaccioUser(verdaccioPort));

    const sample = corpus[1_234 % corpus.length] ?? [];
    for (const peer of [hookyard, verdaccio]) await checkPeer(peer, sample);
    log("both registries serve the seeded document, tarball and search hit; measuring");

    const ceiling = await measureCeiling(cleanup, log);
    const results = await measurePeers(
      [hookyard, verdaccio],
      { corpus, queries, publishes },
      log,
      cleanup.signal,
    );
    const ours = results.get(hookyard);
    const theirs = results.get(verdaccio);
    if (!ours || !theirs) throw new Error("a peer has no results");

    console.log(
      `registry: hookyard vs Verdaccio ${verdaccioVersion}, ${packageCount.toLocaleString("en-US")} packages x ${versionsPerPackage} versions in each`,
    );
    console.log("");
    console.log(registryTable(ours, theirs));
    console.log("");
    for (const line of footerLines(ours, theirs, ceiling, queryCount)) console.log(line);
    console.log(`whole bench ${seconds(started)}`);
  });
}
