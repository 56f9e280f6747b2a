import type { HookAnswer, HookSpec, SyncChainVerdict } from "./types.js";

/**
 * A hook's answer as it crosses from the sandbox process: without the hook's id, since a batch's
 * answers come in the order of its hooks and the supervisor knows which one it expects next.
 */
export type WireAnswer = WithoutHook<HookAnswer>;
/** Omit, applied to each member of a union. */
type WithoutHook<T> = T extends unknown ? Omit<T, "hook"> : never;

/** One hook's answer with the lines it logged during the call. */
export interface HookResult {
  answer: WireAnswer;
  logs?: readonly string[];
}

/**
 * Messages over the IPC channel between the supervisor (in the agent's process) and the sandbox
 * process, JSON-serialised by Node. A hook's spec (its bundle) crosses once per process; later
 * requests name it by id. A batch's answers come back in one `answers` message; in between, the
 * progress file (progress-file.ts) tells the supervisor how far a batch got if the process dies.
 * `slot` is the batch's place in that file, free again once its last answer arrived.
 */
export type ToSandbox =
  | {
      t: "init";
      root: string;
      auditFile: string;
      hosts?: Record<string, string[]> | undefined;
      /** The progress file's descriptor in the sandbox process; absent when there is none. */
      progressFd?: number | undefined;
    }
  | {
      t: "run";
      r: number;
      slot: number;
      point: string;
      ctx: string;
      outcome?: SyncChainVerdict | undefined;
      hooks: (string | HookSpec)[];
    }
  | { t: "drop"; id: string }
  | { t: "state"; q: number; ok: true; value?: unknown }
  | { t: "state"; q: number; ok: false; code: string | null }
  | { t: "close" };

export type FromSandbox =
  | { t: "ready" }
  /**
   * The next answers of batch r, in order. `last` ends the batch; a message without it comes only
   * when the batch's slot in the progress file is full (or there is no progress file).
   */
  | { t: "answers"; r: number; results: HookResult[]; last: boolean }
  | { t: "state"; q: number; op: "get"; hook: string; key: string }
  | { t: "state"; q: number; op: "set"; hook: string; key: string; value: unknown };
