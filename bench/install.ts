/**
 * `hookyard install` against `npm install` of the same tarball from Verdaccio, side by side in one
 * run (issue 6): a 50 KB hook package, a cold store or cache every time, the median wall time of
 * each command including node's start. Goal: hookyard ≤ 300 ms median, and faster than npm.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { childEnv } from "./install/child-env.js";
import { hookyardInstallArgs, installContenders, npmCommand, npmInstallArgs } from "./install/contenders.js";
import { packBenchPackage } from "./install/hook-package.js";
import { startHookyardRegistry } from "./install/hookyard-registry.js";
import { publishTo } from "./install/publish.js";
import { footerLines, goalLine, type InstallResults, installTable } from "./install/report.js";
import { runRounds } from "./install/rounds.js";
import { summarize } from "./install/stats.js";
import { startVerdaccioRegistry } from "./install/verdaccio-registry.js";
import { withCleanup } from "./registry/cleanup.js";
import { ensureVerdaccio, verdaccioVersion } from "./registry/verdaccio/verdaccio-install.js";

const warmupRounds = 3;
const timedRounds = 15;

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function loadLine(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
}

export async function run(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadLine();
  // Progress goes to stderr, so stdout holds only the report.
  const log = (line: string) => console.error(`[${seconds(started).padStart(7)}] ${line}`);
  await withCleanup(async (cleanup) => {
    const installing = ensureVerdaccio(log, cleanup.signal);
    installing.catch(() => {});

    const pkg = await packBenchPackage();
    const { name } = pkg.packed.pkg;
    const id = `${name}@${pkg.packed.version}`;
    const packageLine = `package: ${id}, 3 files, ${kilobytes(pkg.unpackedBytes)} unpacked (bundle ${kilobytes(pkg.bundleBytes)}), tarball ${kilobytes(pkg.packed.tarball.length)} packed with package/tarball/pack.ts.`;
    log(packageLine);

    const root = await mkdtemp(join(tmpdir(), "hookyard-bench-install-"));
    cleanup.dir(root);
    const dirs = {
      hookyard: join(root, "hookyard-registry"),
      verdaccio: join(root, "verdaccio"),
      home: join(root, "home"),
      runs: join(root, "runs"),
    };
    for (const dir of Object.values(dirs)) await mkdir(dir);

    const [hookyard, verdaccio] = await Promise.all([
      startHookyardRegistry(dirs.hookyard, cleanup),
      installing.then((install) => startVerdaccioRegistry(install, dirs.verdaccio, cleanup)),
    ]);
    for (const peer of [hookyard, verdaccio]) await publishTo(peer, pkg.packed);
    log(
      `published ${id} to hookyard (port ${hookyard.server.port}) and Verdaccio (port ${verdaccio.server.port})`,
    );

    const env = childEnv(dirs.home);
    const npmVersion = (
      await promisify(execFile)(npmCommand, ["--version"], { env, timeout: 30_000 })
    ).stdout.trim();
    const hookyardUrl = `http://127.0.0.1:${hookyard.server.port}`;
    const verdaccioUrl = `http://127.0.0.1:${verdaccio.server.port}`;
    const contenders = installContenders({ root: dirs.runs, env, pkg, hookyardUrl, verdaccioUrl });
    const samples = await runRounds(
      [contenders.hookyard, contenders.npm, contenders.nodeFloor, contenders.npmFloor],
      { warmup: warmupRounds, rounds: timedRounds },
      log,
      cleanup.signal,
    );
    const summary = (key: keyof typeof contenders) => ({
      label: contenders[key].label,
      ...summarize(samples.get(contenders[key]) ?? []),
    });
    const results: InstallResults = {
      hookyard: summary("hookyard"),
      npm: summary("npm"),
      nodeFloor: summary("nodeFloor"),
      npmFloor: summary("npmFloor"),
    };

    console.log(
      `install: hookyard vs npm ${npmVersion} from Verdaccio ${verdaccioVersion}, ${id}, cold store and cache every run`,
    );
    console.log("");
    console.log(installTable(results));
    console.log("");
    console.log(goalLine(results));
    const footer = footerLines({
      packageLine,
      hookyardCommand: `node ${hookyardInstallArgs("<url>", "bin/hookyard.js").join(" ")}`,
      npmCommand: `npm ${npmInstallArgs("<url>", "<fresh dir>").join(" ")}`,
      rounds: `${timedRounds} rounds after ${warmupRounds} warm-up rounds`,
      loadBefore,
      loadAfter: loadLine(),
    });
    for (const line of footer) console.log(line);
    console.log(`whole bench ${seconds(started)}`);
  });
}
