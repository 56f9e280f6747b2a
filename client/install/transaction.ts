import { existsSync } from "node:fs";
import { rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { writeConfigFile } from "../../workspace/config-file.js";
import { writeHookyardGitignore } from "../../workspace/gitignore.js";
import {
  emptyLockfile,
  formatLockfile,
  type Lockfile,
  readLockfile,
  storePath,
  storeRoot,
  writeLockfile,
} from "../../workspace/lockfile.js";
import { configFileName, findWorkspaceRoot } from "../../workspace/root.js";
import type { ClientContext, Notice } from "../context.js";
import { ClientError } from "../errors.js";
import { readWorkspaceConfigFile, type WorkspaceConfigFile } from "../workspace-config.js";
import { holdWorkspace, type WorkspaceHold } from "./workspace-mutex.js";

/** What `InstallTransaction.open` takes besides the context (by default, the context's `installTransaction`). */
export interface InstallTransactionOptions {
  /**
   * Test seam: runs once the change's store folders are complete and before hookyard.lock is
   * written, with the transaction's signal (a pause there should end when it aborts: Ctrl-C).
   * Throwing fails the change, which is undone. Only a test's own process passes it (to `main`
   * or to `open`); the bin passes none, and nothing in the environment sets it.
   */
  beforeCommit?(change: { signal: AbortSignal }): void | Promise<void>;
}

/**
 * One change to a workspace's community hooks: hookyard.json and hookyard.lock as read at the
 * start, changed in memory, and written (each atomically, the lock first) only by `commit`. Store
 * folders made on the way are removed if it fails or is interrupted, so the workspace is left as
 * it was. Ctrl-C (SIGINT) and SIGTERM abort `signal`, and so does the workspace lock taken over by another process.
 */
export class InstallTransaction {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly created: string[] = [];
  private readonly onCommit: Array<() => void> = [];
  private readonly maybeUnused: string[] = [];
  /** Once the lock names the new store folders, they stay, whatever fails after. */
  private lockWritten = false;
  /** The lock as read, so an unchanged lock is not rewritten. */
  private readonly lockText: string;
  /** This change makes `.hookyard/`: it gets its .gitignore. */
  private makesFolder = false;
  /** Set when this change makes the workspace: told so once it is written. */
  private madeWorkspace: ((notice: Notice) => void) | undefined;
  private readonly onSignal = () => this.controller.abort();

  private constructor(
    readonly root: string,
    private readonly storeExisted: boolean,
    readonly config: WorkspaceConfigFile,
    readonly lock: Lockfile,
    private readonly hold: WorkspaceHold,
    private readonly options: InstallTransactionOptions,
  ) {
    // Ctrl-C, or the workspace lock taken over by another process (its reason says so).
    this.signal = AbortSignal.any([this.controller.signal, hold.lost]);
    this.lockText = formatLockfile(lock);
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
  }

  static async open(
    context: Pick<ClientContext, "cwd" | "installTransaction" | "notice">,
    options: InstallTransactionOptions = context.installTransaction ?? {},
  ): Promise<InstallTransaction> {
    const root = await findWorkspaceRoot(context.cwd);
    const hadFolder = existsSync(join(root, ".hookyard"));
    const hold = await holdWorkspace(root);
    try {
      const tx = await InstallTransaction.read(root, hold, options);
      if (!hadFolder) {
        tx.makesFolder = true;
        // No hookyard.json either, at or above cwd: the change makes a workspace here, and says so.
        if (!existsSync(join(root, configFileName))) tx.madeWorkspace = context.notice ?? (() => {});
      }
      return tx;
    } catch (error) {
      await hold.release();
      throw error;
    }
  }

  private static async read(
    root: string,
    hold: WorkspaceHold,
    options: InstallTransactionOptions,
  ): Promise<InstallTransaction> {
    const config = await readWorkspaceConfigFile(root);
    const lock = await readLockfile(root);
    const storeExisted = existsSync(storeRoot(root));
    return new InstallTransaction(root, storeExisted, config, lock ?? emptyLockfile(), hold, options);
  }

  /**
   * Store folders of these integrities go once the change is written, if the lock no longer
   * names them: a crash in between leaves unused folders, never a lock without its bytes.
   */
  dropUnusedAfterCommit(integrities: Iterable<string>): void {
    this.maybeUnused.push(...integrities);
  }

  /** Runs `say` once the change is written: what a change did is told only when it was done. */
  afterCommit(say: () => void): void {
    this.onCommit.push(say);
  }

  /** Remembers a store folder this change made, to remove it if the change does not complete. */
  made(storeDir: string): void {
    this.created.push(storeDir);
  }

  /** Takes back a store folder this change made and no longer needs (an update that was refused). */
  async discard(storeDir: string): Promise<void> {
    const at = this.created.indexOf(storeDir);
    if (at < 0) return;
    this.created.splice(at, 1);
    await rm(storeDir, { recursive: true, force: true });
  }

  /** Runs the change and commits it; on any failure (or Ctrl-C) undoes what it made and rethrows. */
  async run<T>(
    work: () => Promise<T>,
    options: { write: boolean | ((result: T) => boolean) } = { write: true },
  ): Promise<T> {
    try {
      const result = await work();
      this.signal.throwIfAborted();
      const write = typeof options.write === "function" ? options.write(result) : options.write;
      if (write) await this.commit();
      await this.madeFolder();
      await this.removeUnused();
      for (const say of this.onCommit) say();
      return result;
    } catch (error) {
      if (!this.lockWritten) await this.undo();
      if (this.signal.aborted) {
        if (this.signal.reason instanceof ClientError) throw this.signal.reason;
        throw new ClientError(
          "CLI_ERR_INTERRUPTED",
          "interrupted: nothing was changed (hookyard.json, hookyard.lock and the store are as they were)",
        );
      }
      throw error;
    } finally {
      process.off("SIGINT", this.onSignal);
      process.off("SIGTERM", this.onSignal);
      await this.hold.release();
    }
  }

  private async removeUnused(): Promise<void> {
    const stillUsed = new Set(Object.values(this.lock.packages).map((entry) => entry.integrity));
    for (const integrity of new Set(this.maybeUnused)) {
      if (!stillUsed.has(integrity))
        await rm(storePath(this.root, integrity), { recursive: true, force: true });
    }
  }

  /** Removes the store folders this change made, and `.hookyard/store/` itself if this change made it. */
  private async undo(): Promise<void> {
    await Promise.all(this.created.map((dir) => rm(dir, { recursive: true, force: true })));
    if (this.storeExisted) return;
    for (const dir of [storeRoot(this.root), join(this.root, ".hookyard")]) {
      await rmdir(dir).catch(() => {}); // only when empty: anything else there is not ours
    }
  }

  private async commit(): Promise<void> {
    await this.options.beforeCommit?.({ signal: this.signal });
    this.signal.throwIfAborted();
    const text = formatLockfile(this.lock);
    if (text !== this.lockText) await writeLockfile(this.root, this.lock);
    this.lockWritten = true;
    await writeConfigFile(this.config);
  }

  /** `.hookyard/` made by this change gets its .gitignore; a workspace made by it is said. */
  private async madeFolder(): Promise<void> {
    if (!this.makesFolder || !existsSync(join(this.root, ".hookyard"))) return;
    // The store is this machine's: without the .gitignore, the next git commit would take it along.
    await writeHookyardGitignore(this.root);
    this.madeWorkspace?.({
      level: "info",
      text: `no hookyard workspace was found at or above this folder, so one was made in ${this.root}: hookyard.json, hookyard.lock and .hookyard/ (its .gitignore keeps the store out of git; commit the other two)`,
    });
  }
}
