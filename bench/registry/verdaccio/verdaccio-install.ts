import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchError } from "../../errors.js";

/**
 * Installs the peer, Verdaccio, with npm into a cache folder outside the repo, once per machine:
 * later runs reuse it when the completion marker matches the wanted package.json.
 */

export const verdaccioVersion = "6.8.0";

/** verdaccio 6.8.0 pulls a node-fetch 2.x that warns on Node 20; the issue pins this override. */
const installManifest = {
  name: "hookyard-bench-verdaccio",
  private: true,
  dependencies: { verdaccio: verdaccioVersion },
  overrides: { "node-fetch": "2.7.0" },
};

const installTimeoutMs = 300_000;
const progressEveryMs = 5_000;

export interface VerdaccioInstall {
  dir: string;
  /** The CLI script to run with node. */
  bin: string;
}

function verdaccioCacheDir(): string {
  return join(tmpdir(), `hookyard-bench-verdaccio-${verdaccioVersion}`);
}

export async function ensureVerdaccio(
  log: (line: string) => void,
  signal: AbortSignal,
): Promise<VerdaccioInstall> {
  const dir = verdaccioCacheDir();
  const install = { dir, bin: join(dir, "node_modules", "verdaccio", "bin", "verdaccio") };
  const marker = join(dir, ".hookyard-bench-complete");
  const wanted = JSON.stringify(installManifest, null, 2);
  if ((await readIfExists(marker)) === wanted && existsSync(install.bin)) {
    log(`verdaccio@${verdaccioVersion}: cached in ${dir}`);
    return install;
  }
  // A half-finished install (interrupted, or another manifest) is not worth repairing.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), wanted);
  log(`verdaccio@${verdaccioVersion}: installing with npm into ${dir} (first run only)`);
  await npmInstall(dir, log, signal);
  if (!existsSync(install.bin)) {
    throw new BenchError("BENCH_ERR_INSTALL", `npm install finished but ${install.bin} is missing`);
  }
  await writeFile(marker, wanted);
  log(`verdaccio@${verdaccioVersion}: installed`);
  return install;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

/** npm run bench exports npm_* variables (local prefix among them) that would aim the install at the repo. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  return env;
}

function npmInstall(dir: string, log: (line: string) => void, signal: AbortSignal): Promise<void> {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const args = ["install", "--no-audit", "--no-fund", "--prefix", dir];
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, { cwd: dir, env: npmEnv(), stdio: ["ignore", "pipe", "pipe"], signal });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const started = Date.now();
    const ticker = setInterval(
      () => log(`  npm install running, ${Math.round((Date.now() - started) / 1000)} s`),
      progressEveryMs,
    );
    const timer = setTimeout(() => child.kill("SIGTERM"), installTimeoutMs);
    const done = () => {
      clearInterval(ticker);
      clearTimeout(timer);
    };
    child.on("error", (error) => {
      done();
      reject(new BenchError("BENCH_ERR_INSTALL", `could not run npm: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, signal) => {
      done();
      if (code === 0) return resolve();
      const how = signal ? `was stopped by ${signal}` : `exited with ${code}`;
      reject(
        new BenchError(
          "BENCH_ERR_INSTALL",
          `npm install of verdaccio@${verdaccioVersion} ${how}; is the npm registry reachable? Last output:\n${output.trim()}`,
        ),
      );
    });
  });
}
