import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Each conformance workspace's XDG_RUNTIME_DIR: where the exec route's daemon keeps its socket and
 * log. `runtimeDir()` makes one and remembers it; `stopRuntimes()` (in afterEach) kills every
 * daemon a test started, found by its log's "pid N serves" line, then removes the folders.
 */
const runtimes: string[] = [];

export async function runtimeDir(): Promise<string> {
  const runtime = await mkdtemp(join(tmpdir(), "hookyard-agent-run-"));
  runtimes.push(runtime);
  return runtime;
}

export async function stopRuntimes(): Promise<void> {
  await Promise.all(runtimes.splice(0).map((runtime) => stopDaemons(runtime)));
}

/** A few rounds: the exec route starts its daemon in the background, which may still be starting. */
async function stopDaemons(runtime: string): Promise<void> {
  const dir = join(runtime, "hookyard");
  for (let round = 0; round < 3; round++) {
    for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".log"))) {
      for (const m of (await readFile(join(dir, name), "utf8").catch(() => "")).matchAll(
        /pid (\d+) serves/g,
      )) {
        try {
          process.kill(Number(m[1]), "SIGKILL");
        } catch {}
      }
    }
    await new Promise((done) => setTimeout(done, 300));
  }
  await rm(runtime, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

/** What the conformance hook file's agent_before / agent_after wrote: "start <source>", "end <reason>". */
export async function sessionsLog(root: string): Promise<string> {
  return readFile(join(root, "sessions.log"), "utf8").catch(() => "");
}
