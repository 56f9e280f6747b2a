import { errorText } from "../../runner/errors.js";
import type { Hooks } from "../../runner/load-hooks.js";

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
   * Loads the hooks again; one reload at a time. A load that throws, or that leaves a hook out that
   * the hooks now running have (a hook file saved half-written), is refused: the running hooks stay,
   * and the log says why.
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
    const before = new Set(this.current.hooks.problems.map((problem) => problem.name));
    const fresh = loaded.problems.filter((problem) => !before.has(problem.name));
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
