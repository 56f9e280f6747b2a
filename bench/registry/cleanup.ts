import { rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { RunningServer } from "./server-process.js";

/** Something a run started that must be stopped: a server process, a PostgreSQL cluster. */
export interface Stoppable {
  label: string;
  stop(): Promise<void>;
  /** For process exit: no awaiting, only what synchronous calls can do. */
  stopSync(): void;
}

/**
 * What a bench run leaves behind (server processes, temp data) is undone when the run ends, when
 * it fails, on Ctrl-C or SIGTERM, and (as far as synchronous calls can) when the process exits
 * any other way. Servers (and the PostgreSQL cluster) stop first, newest first; then the temp dirs go.
 */
export class Cleanup {
  readonly #servers: Stoppable[] = [];
  readonly #dirs: string[] = [];
  readonly #abort = new AbortController();

  /** Aborted when cleanup starts: child processes that are not servers (npm install) stop with it. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  server(server: RunningServer): void {
    this.#servers.push({
      label: server.label,
      stop: () => server.stop(),
      stopSync: () => {
        try {
          if (server.pid > 0) process.kill(-server.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      },
    });
  }

  /** Stopped with the servers, newest first: add what servers depend on before them. */
  add(stoppable: Stoppable): void {
    this.#servers.push(stoppable);
  }

  dir(path: string): void {
    this.#dirs.push(path);
  }

  async runAll(): Promise<void> {
    this.#abort.abort();
    for (let server = this.#servers.pop(); server; server = this.#servers.pop()) {
      await server
        .stop()
        .catch((error: Error) => console.error(`cleanup: ${server?.label}: ${error.message}`));
    }
    for (const dir of this.#dirs) {
      // Seeding interrupted by Ctrl-C may still be writing into it: retry a non-empty rmdir.
      await rm(dir, { recursive: true, force: true, maxRetries: 5 }).catch((error: Error) =>
        console.error(`cleanup: ${error.message}`),
      );
    }
  }

  /**
   * For process exit, where nothing can be awaited and nothing else runs any more: whatever an
   * interrupted run wrote after runAll removed its dirs goes here.
   */
  runAllSync(): void {
    this.#abort.abort();
    for (let server = this.#servers.pop(); server; server = this.#servers.pop()) {
      try {
        server.stopSync();
      } catch (error) {
        console.error(`cleanup: ${server.label}: ${(error as Error).message}`);
      }
    }
    for (const dir of this.#dirs.splice(0)) {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch (error) {
        console.error(`cleanup: ${(error as Error).message}`);
      }
    }
  }
}

/** Runs `body` with a Cleanup that is always run: on return, on throw, on SIGINT/SIGTERM and on exit. */
export async function withCleanup<T>(body: (cleanup: Cleanup) => Promise<T>): Promise<T> {
  const cleanup = new Cleanup();
  let stopping: Promise<never> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === "SIGINT" ? 130 : 143;
    if (stopping) {
      // A second Ctrl-C: no more waiting for graceful stops.
      cleanup.runAllSync();
      process.exit(code);
    }
    console.error(`\n${signal}: stopping the servers and removing temp data (again to force)`);
    stopping = cleanup.runAll().then(() => process.exit(code));
  };
  const onExit = () => cleanup.runAllSync();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.once("exit", onExit);
  try {
    return await body(cleanup);
  } catch (error) {
    // Work cut short by the cleanup fails in odd places; the exit code says why, not those errors.
    if (stopping) await stopping;
    throw error;
  } finally {
    await cleanup.runAll();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", onExit);
  }
}
