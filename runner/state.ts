import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RunnerError } from "../core/errors.js";

export interface HookState {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

/** A receipt for one state write, once it is on disk: a run's record keeps these. */
export interface StateWrite {
  hook: string;
  key: string;
  deleted: boolean;
  /** This store's count of the hook's writes, from 1: receipts come in this order. */
  revision: number;
  /** Of the state file's bytes as written. */
  sha256: string;
}

/**
 * Per-hook key/value state in `.hookyard/state/<hook>.json` (`@scope%2Fname.json` for a scoped name). Sets apply to memory in call order
 * and reach disk through one write queue, each write an atomic replace of the hook's file, so
 * concurrent sets are never lost and a crash never leaves half a file.
 */
export class StateStore {
  private readonly maps = new Map<string, Promise<Map<string, unknown>>>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Every set so far, settled or not: a set joins the write queue only once its file is loaded. */
  private sets: Promise<unknown> = Promise.resolve();
  private writes = 0;
  private readonly revisions = new Map<string, number>();
  private readonly listeners = new Set<(write: StateWrite) => void>();

  constructor(private readonly dir: string) {}

  /** Calls `listener` after each write reaches disk, in write order; returns the unsubscribe. */
  onWrite(listener: (write: StateWrite) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  forHook(hook: string): HookState {
    return {
      get: async <T>(key: string) => {
        const value = (await this.load(hook)).get(key);
        return value === undefined ? undefined : (structuredClone(value) as T);
      },
      set: (key, value) => this.set(hook, key, value),
    };
  }

  /** Resolves once every write queued so far is on disk. */
  flush(): Promise<void> {
    return this.sets.then(() => this.queue).then(() => undefined);
  }

  private set(hook: string, key: string, value: unknown): Promise<void> {
    let copy: unknown;
    try {
      copy = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    } catch (error) {
      return Promise.reject(
        new RunnerError(
          "RUN_ERR_STATE_INVALID",
          `state "${key}" of hook "${hook}" is not JSON-serialisable`,
          {
            hook,
            cause: error,
          },
        ),
      );
    }
    const done = this.load(hook).then((map) => {
      if (copy === undefined) map.delete(key);
      else map.set(key, copy);
      return this.persist(hook, map, key, copy === undefined);
    });
    this.sets = Promise.allSettled([this.sets, done]).then(() => undefined);
    return done;
  }

  private persist(hook: string, map: Map<string, unknown>, key: string, deleted: boolean): Promise<void> {
    const file = this.file(hook);
    const write = this.queue.then(async () => {
      await mkdir(this.dir, { recursive: true });
      const temp = `${file}.${process.pid}.${++this.writes}.tmp`;
      const text = `${JSON.stringify(Object.fromEntries(map), null, 2)}\n`;
      await writeFile(temp, text);
      await rename(temp, file);
      const revision = (this.revisions.get(hook) ?? 0) + 1;
      this.revisions.set(hook, revision);
      // Loaded by the first write, not with the state: most events write none.
      const { createHash } = process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
      const sha256 = createHash("sha256").update(text).digest("hex");
      for (const listener of this.listeners) listener({ hook, key, deleted, revision, sha256 });
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  private load(hook: string): Promise<Map<string, unknown>> {
    let loaded = this.maps.get(hook);
    if (!loaded) {
      loaded = this.read(hook);
      this.maps.set(hook, loaded);
      loaded.catch(() => this.maps.delete(hook));
    }
    return loaded;
  }

  private async read(hook: string): Promise<Map<string, unknown>> {
    const file = this.file(hook);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
      throw error;
    }
    try {
      const data = JSON.parse(text) as unknown;
      if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error("not an object");
      return new Map(Object.entries(data));
    } catch (error) {
      throw new RunnerError("RUN_ERR_STATE_CORRUPT", `${file} is not a JSON object; fix or delete it`, {
        hook,
        cause: error,
      });
    }
  }

  private file(hook: string): string {
    // A scoped package name (@acme/guard) is one file, not a folder per scope: the / is encoded.
    return join(this.dir, `${hook.replaceAll("/", "%2F")}.json`);
  }
}
