import { errorText } from "../../core/errors.js";
import type { Hooks } from "../../runner/load/load-hooks.js";

/** One load of the workspace's hooks, and the requests using it. */
interface Generation {
  hooks: Hooks;
  inFlight: number;
  retired: boolean;
}

/**
 * The daemon's hooks, loaded once and kept warm, swapped whole on reload. A request keeps the
 * hooks it started with; hooks that were replaced close once their last request is answered.
 */
export class LiveHooks {
  private current: Generation;
  private reloading: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly load: () => Promise<Hooks>,
    first: Hooks,
    private readonly log: (line: string) => void,
  ) {
    this.current = { hooks: first, inFlight: 0, retired: false };
  }

  /** Loads the hooks; a workspace that does not load at start is an error (nothing is served yet). */
  static async start(load: () => Promise<Hooks>, log: (line: string) => void): Promise<LiveHooks> {
    return new LiveHooks(load, await load(), log);
  }

  get hooks(): Hooks {
    return this.current.hooks;
  }

  async use<T>(run: (hooks: Hooks) => Promise<T>): Promise<T> {
    const generation = this.current;
    generation.inFlight++;
    try {
      return await run(generation.hooks);
    } finally {
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) void this.dispose(generation);
    }
  }

  /**
   * Loads the hooks again; one reload at a time. A load that throws, or that leaves out a hook that
   * runs now (a hook file saved half-written), is refused: the running hooks stay, and the log says
   * why. Problems with anything not running now are skipped, as at any load.
   */
  reload(why: string): Promise<boolean> {
    const next = this.reloading.then(() => this.reloadNow(why));
    this.reloading = next.catch(() => undefined);
    return next;
  }

  private async reloadNow(why: string): Promise<boolean> {
    if (this.closed) return false;
    let loaded: Hooks;
    try {
      loaded = await this.load();
    } catch (error) {
      this.log(`reload after ${why} failed, the hooks loaded before stay: ${errorText(error)}`);
      return false;
    }
    // Refused only when a hook that runs now would be lost: a new problem elsewhere (a broken rule
    // file, a new hook file with an error) is reported and skipped, as at any load.
    const running = new Set(
      this.current.hooks.list().flatMap((chain) => chain.hooks.map((hook) => hook.name)),
    );
    const fresh = loaded.problems.filter((problem) => running.has(problem.name));
    for (const problem of loaded.problems.filter((p) => !running.has(p.name))) {
      this.log(`reload after ${why}: "${problem.name}" is skipped: ${problem.message}`);
    }
    if (fresh.length > 0 || this.closed) {
      if (fresh.length > 0) {
        const names = fresh.map((problem) => `"${problem.name}"`).join(", ");
        this.log(`reload after ${why} refused: ${names} would not load; the hooks loaded before stay`);
      }
      await loaded.close();
      return false;
    }
    const old = this.current;
    this.current = { hooks: loaded, inFlight: 0, retired: false };
    old.retired = true;
    if (old.inFlight === 0) await this.dispose(old);
    this.log(`reloaded after ${why}: ${hookCount(loaded)} hook(s)`);
    return true;
  }

  /** After the server stopped taking requests: waits for a reload in progress, then closes the hooks. */
  async close(): Promise<void> {
    this.closed = true;
    await this.reloading;
    this.current.retired = true;
    if (this.current.inFlight === 0) await this.dispose(this.current);
  }

  private async dispose(generation: Generation): Promise<void> {
    try {
      await generation.hooks.drain();
      await generation.hooks.close();
    } catch (error) {
      this.log(`closing replaced hooks failed: ${errorText(error)}`);
    }
  }
}

export function hookCount(hooks: Hooks): number {
  return new Set(hooks.list().flatMap((chain) => chain.hooks.map((hook) => hook.name))).size;
}
