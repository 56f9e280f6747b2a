/**
 * The registry against Verdaccio, side by side in one run (issues 4 and 18): 10,000 synthetic hook
 * packages x 5 versions loaded into every peer, then package-document GETs, tarball GETs, searches
 * and publishes of new versions, each through the same load generator over real HTTP on 127.0.0.1.
 * The peers: hookyard embedded (sqlite + files); hookyard on PostgreSQL with its tarballs in a
 * data dir, one process and two; the same with its tarballs in S3 (s3rver), one process and two;
 * Verdaccio. Goals: issue 4's for the embedded registry, issue 18's for each PostgreSQL column
 * (table.ts). HOOKYARD_BENCH_REGISTRY_PACKAGES (and _SECONDS) make a small run for development.
 */
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copySeeded, startBenchCluster, vacuumAnalyze } from "./registry/backends/postgres-registry.js";
import { seedBucket } from "./registry/backends/s3-seed.js";
import { s3Env, startS3 } from "./registry/backends/s3-server.js";
import { checkPeer } from "./registry/check.js";
import { type Cleanup, withCleanup } from "./registry/cleanup.js";
import { corpusPackages, searchQueries } from "./registry/corpus.js";
import { seedHookyard } from "./registry/hookyard/hookyard-seed.js";
import { type HookyardStorage, hookyardPeer, startHookyard } from "./registry/hookyard/hookyard-server.js";
import { seedHookyardInThread } from "./registry/hookyard/seed-thread.js";
import { mapLimit } from "./registry/map-limit.js";
import { packCorpus, packVersion } from "./registry/packed-corpus.js";
import type { Peer } from "./registry/peer.js";
import { measureCeiling, measurePeers } from "./registry/scenarios.js";
import { freePort, type RunningServer } from "./registry/server-process.js";
import { type Column, footerLines, goalLines, registryTable } from "./registry/table.js";
import {
  addVerdaccioUser,
  seedVerdaccio,
  startVerdaccio,
  verdaccioPeer,
  writeVerdaccioConfig,
} from "./registry/verdaccio/verdaccio.js";
import { ensureVerdaccio, verdaccioVersion } from "./registry/verdaccio/verdaccio-install.js";

const packageCount = Number(process.env.HOOKYARD_BENCH_REGISTRY_PACKAGES ?? 10_000);
const versionsPerPackage = 5;
const queryCount = 300;
/**
 * More than any peer can publish one at a time in the warm-up plus the measured seconds; never
 * more than there are packages, since each publish is a new version of a distinct one.
 */
const publishCount = Math.min(3_000, packageCount);

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** A hookyard column: its short name, what it is, how many processes and where they keep things. */
interface HookyardSpec {
  short: string;
  label: string;
  processes: number;
  storage: HookyardStorage;
}

async function startProcesses(spec: HookyardSpec, token: string, cleanup: Cleanup): Promise<Peer> {
  const servers: RunningServer[] = [];
  // One after the other: the first start alone on a database runs the sweep, the next joins it.
  for (let i = 1; i <= spec.processes; i++) {
    const label = spec.processes > 1 ? `hookyard (${spec.short}), process ${i}` : `hookyard (${spec.short})`;
    servers.push(await startHookyard(label, spec.storage, await freePort(), cleanup));
  }
  return hookyardPeer(servers, token, spec.label);
}

export async function run(): Promise<void> {
  const started = performance.now();
  // Progress goes to stderr, so stdout holds only the report.
  const log = (line: string) => console.error(`[${seconds(started).padStart(7)}] ${line}`);
  await withCleanup(async (cleanup) => {
    // npm works on its own process while this one packs.
    const installing = ensureVerdaccio(log, cleanup.signal);
    installing.catch(() => {});

    const root = await mkdtemp(join(tmpdir(), "hookyard-bench-registry-"));
    cleanup.dir(root);
    // PostgreSQL and s3rver start while this process packs.
    const clustering = startBenchCluster(cleanup);
    clustering.catch(() => {});
    const s3Starting = freePort().then((port) => startS3(join(root, "s3"), port, cleanup));
    s3Starting.catch(() => {});

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

    const verdaccioRoot = join(root, "verdaccio");
    await mkdir(verdaccioRoot);
    const verdaccioPort = await freePort();
    const config = await writeVerdaccioConfig(verdaccioRoot);
    const embeddedDir = join(root, "hookyard");

    // Every seeding at once: the sqlite and PostgreSQL imports are this process's CPU and
    // PostgreSQL's, Verdaccio's and the bucket's are file writes.
    const cluster = await clustering;
    const s3 = await s3Starting;
    const seeded = { database: await cluster.createDatabase(), dataDir: join(root, "pg-files") };
    let seeding = performance.now();
    const timed = async <T>(what: string, work: Promise<T>): Promise<[T, string]> => {
      const result = await work;
      const took = seconds(seeding);
      log(`${what}: seeded in ${took}`);
      return [result, took];
    };
    const [[token], [pgToken, pgSeedSeconds], , [, s3SeedSeconds]] = await Promise.all([
      timed(
        "hookyard sqlite",
        seedHookyard(
          { dataDir: embeddedDir },
          corpus,
          (done, total) => log(`hookyard sqlite: seeded ${done}/${total} versions`),
          cleanup.signal,
        ),
      ),
      timed(
        "hookyard PostgreSQL",
        seedHookyardInThread(
          seeded,
          corpus,
          (done, total) => log(`hookyard PostgreSQL: seeded ${done}/${total} versions`),
          cleanup.signal,
        ),
      ),
      timed(
        `Verdaccio (${corpus.length} packages on disk)`,
        seedVerdaccio(join(verdaccioRoot, "storage"), corpus, verdaccioPort, cleanup.signal),
      ),
      timed("the S3 bucket", seedBucket(s3.objectsDir, s3.bucket, corpus, cleanup.signal)),
    ]);

    // Each column its own database (and data dir), so each publishes the same new versions.
    // The seeded database becomes the first column's once the copies are made from it.
    seeding = performance.now();
    // Vacuumed first: a copy starts with its template's GIN pending list (the search index's
    // entries not yet merged, which every search scans) and statistics, and autovacuum never visits
    // a copy that nothing writes to. Unvacuumed, the copies searched at 13 ms p50, the seeded one at 4.
    await vacuumAnalyze(seeded.database);
    const files2 = await copySeeded(cluster, seeded, join(root, "pg-files-2"));
    const s3One = await copySeeded(cluster, { database: seeded.database }, join(root, "pg-s3-1"));
    const s3Two = await copySeeded(cluster, { database: seeded.database }, join(root, "pg-s3-2"));
    log(`copied the PostgreSQL registry for the other columns in ${seconds(seeding)}`);

    const specs: HookyardSpec[] = [
      { short: "pg", label: "PostgreSQL + files, 1 process", processes: 1, storage: seeded },
      {
        short: "pg x2",
        label: "PostgreSQL + files, 2 processes",
        processes: 2,
        storage: { dataDir: join(root, "pg-files-2"), database: files2 },
      },
      ...[
        {
          short: "pg+s3",
          label: "PostgreSQL + S3, 1 process",
          processes: 1,
          database: s3One,
          dir: "pg-s3-1",
        },
        {
          short: "pg+s3 x2",
          label: "PostgreSQL + S3, 2 processes",
          processes: 2,
          database: s3Two,
          dir: "pg-s3-2",
        },
      ].map(({ dir, database, ...spec }) => ({
        ...spec,
        storage: { dataDir: join(root, dir), database, blobs: s3.blobsUrl, env: s3Env },
      })),
    ];

    const install = await installing;
    // Every registry starts side by side (each start sweeps its 50,000 blobs); a column's processes in turn.
    const [embeddedServer, postgres, verdaccioServer] = await Promise.all([
      freePort().then((port) => startHookyard("hookyard (sqlite)", { dataDir: embeddedDir }, port, cleanup)),
      Promise.all(specs.map((spec) => startProcesses(spec, pgToken, cleanup))),
      startVerdaccio(install, config, verdaccioRoot, verdaccioPort, cleanup),
    ]);
    const embedded = hookyardPeer(embeddedServer, token, "sqlite + files");
    const verdaccio = verdaccioPeer(verdaccioServer, await addVerdaccioUser(verdaccioPort));

    const peers = [embedded, ...postgres, verdaccio];
    const sample = corpus[1_234 % corpus.length] ?? [];
    for (const peer of peers) await checkPeer(peer, sample);
    log("every registry process serves the seeded document, tarball and search hit; measuring");

    const ceiling = await measureCeiling(cleanup, log);
    const results = await measurePeers(peers, { corpus, queries, publishes }, log, cleanup.signal);
    const column = (peer: Peer, short: string): Column => {
      const found = results.get(peer);
      if (!found) throw new Error(`${peer.label} has no results`);
      return { short, label: peer.label, results: found };
    };
    const embeddedColumn = column(embedded, "sqlite");
    const postgresColumns = postgres.map((peer, i) => column(peer, specs[i]?.short ?? peer.label));
    const verdaccioColumn = column(verdaccio, "Verdaccio");
    const hookyardColumns = [embeddedColumn, ...postgresColumns];

    console.log(
      `registry: hookyard (sqlite; PostgreSQL, 1 and 2 processes; PostgreSQL + S3, 1 and 2) vs Verdaccio ${verdaccioVersion}, ${packageCount.toLocaleString("en-US")} packages x ${versionsPerPackage} versions in each`,
    );
    console.log("");
    console.log(registryTable(hookyardColumns, verdaccioColumn));
    console.log("");
    for (const line of goalLines(embeddedColumn, postgresColumns, verdaccioColumn)) console.log(line);
    console.log("");
    const notes = [
      "Two processes: one database and one data dir (or bucket), each started as `registry serve` is; the" +
        " generator sends request i to process i mod 2 (round-robin per request, a keep-alive pool per" +
        " process). The path lists have even lengths, so each path always reaches the same process, as" +
        " behind a load balancer that hashes on the path; each process's warm-up fills its half.",
      `Seeding: PostgreSQL through the store in-process, with the import the sqlite column uses (check, sign,` +
        ` one transaction per 500 packages, 4 at once; in a worker thread beside the sqlite one), in ${pgSeedSeconds}; the other PostgreSQL columns are copies of` +
        " that database (CREATE DATABASE … TEMPLATE) with their data dir's blob files hard-linked; the bucket" +
        ` was written straight into s3rver's directory in its own layout, in ${s3SeedSeconds} (its PUTs ran at about` +
        " 200/s), and both S3 columns use it (content-addressed keys: their identical new versions are the same" +
        " objects). All four seedings ran at once, so each time includes the others' share of the cores." +
        " s3rver is an emulator (Koa, one process, local files): the S3 tarball rows measure it as much as hookyard," +
        " which asks the bucket for each tarball's revision (a HEAD) on every download.",
    ];
    for (const line of footerLines([...hookyardColumns, verdaccioColumn], ceiling, queryCount, notes))
      console.log(line);
    console.log(`whole bench ${seconds(started)}`);
  });
}
