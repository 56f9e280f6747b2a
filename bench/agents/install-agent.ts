import { execFile } from "node:child_process";
import { mkdir, open, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A coding agent's npm package, pinned, installed for the conformance tests (test/agents/) and the
 * agent-session bench into a cache outside the project (`~/.cache/hookyard/agents/<name>@<version>/`,
 * or `$HOOKYARD_AGENT_CACHE`), never into the project's dependencies. Installed once: a later run (or another test worker) reuses it.
 */
export interface AgentPackage {
  name: string;
  version: string;
}

export interface InstalledAgent {
  /** The folder the package was installed under (`<dir>/node_modules/<name>`). */
  dir: string;
  /** The package's own folder. */
  packageDir: string;
}

/** Why the agent could not be installed (no registry), for a test to skip with; undefined when installed. */
export type InstallResult = { ok: true; agent: InstalledAgent } | { ok: false; reason: string };

export function agentCacheRoot(): string {
  return process.env.HOOKYARD_AGENT_CACHE ?? join(homedir(), ".cache", "hookyard", "agents");
}

const lockStaleMs = 10 * 60_000;
const installTimeoutMs = 5 * 60_000;

/**
 * Installs `pkg` (npm install --ignore-scripts: npm does not run its postinstall, so a caller runs
 * the platform binary itself) into a temp folder, then renames it into place: a folder that is
 * there is whole. A lock file keeps two workers from downloading it twice; a lock older than ten
 * minutes is a crashed run's and is taken over.
 */
export async function installAgent(pkg: AgentPackage): Promise<InstallResult> {
  // CI runs the real agents on one Node line only (.ci/run says which): each suite then skips,
  // printing this reason, instead of installing.
  if (process.env.HOOKYARD_AGENT_CONFORMANCE === "skip") {
    return {
      ok: false,
      reason: "HOOKYARD_AGENT_CONFORMANCE=skip (CI runs the coding agents on one Node line)",
    };
  }
  const root = agentCacheRoot();
  const dir = join(root, `${pkg.name.replace("/", "+")}@${pkg.version}`);
  const agent = { dir, packageDir: join(dir, "node_modules", ...pkg.name.split("/")) };
  if (await installed(agent, pkg)) return { ok: true, agent };
  await mkdir(root, { recursive: true });
  const lock = `${dir}.lock`;
  const release = await takeLock(lock);
  try {
    if (await installed(agent, pkg)) return { ok: true, agent };
    const temp = `${dir}.tmp-${process.pid}-${Date.now()}`;
    await mkdir(temp, { recursive: true });
    try {
      await run(
        "npm",
        [
          "install",
          "--prefix",
          temp,
          "--no-save",
          "--ignore-scripts",
          "--no-audit",
          "--no-fund",
          "--loglevel=error",
          `${pkg.name}@${pkg.version}`,
        ],
        {
          timeout: installTimeoutMs,
          cwd: temp,
          env: { ...process.env, npm_config_update_notifier: "false" },
        },
      );
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: `npm install ${pkg.name}@${pkg.version} failed: ${message.slice(0, 500)}` };
    }
    await rm(dir, { recursive: true, force: true });
    await rename(temp, dir);
    return { ok: true, agent };
  } finally {
    await release();
  }
}

async function installed(agent: InstalledAgent, pkg: AgentPackage): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(agent.packageDir, "package.json"), "utf8")) as {
      version?: string;
    };
    return manifest.version === pkg.version;
  } catch {
    return false;
  }
}

async function takeLock(lock: string): Promise<() => Promise<void>> {
  const deadline = Date.now() + installTimeoutMs + 60_000;
  for (;;) {
    try {
      const handle = await open(lock, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => unlink(lock).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > lockStaleMs) await unlink(lock).catch(() => {});
      else if (Date.now() > deadline) throw new Error(`${lock} is held by another install for too long`);
      else await new Promise((done) => setTimeout(done, 500));
    }
  }
}
