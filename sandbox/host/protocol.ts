import type { ChainOutcome, HookAnswer, HookSpec } from "../runtime/types.js";

/**
 * Messages over the IPC channel between the supervisor (in the agent's process) and the sandbox
 * process, JSON-serialised by Node. A hook's spec (its bundle) crosses once per process; later
 * requests name it by id. Answers stream back one per hook, so when the process dies the
 * supervisor knows which hook was running.
 */
export type ToHost =
  | { t: "init"; root: string; auditFile: string; hosts?: Record<string, string[]> | undefined }
  | {
      t: "run";
      r: number;
      point: string;
      ctx: string;
      outcome?: ChainOutcome | undefined;
      hooks: (string | HookSpec)[];
    }
  | { t: "drop"; id: string }
  | { t: "state"; q: number; ok: true; value?: unknown }
  | { t: "state"; q: number; ok: false; code: string | null }
  | { t: "close" };

export type FromHost =
  | { t: "ready" }
  | { t: "answer"; r: number; answer: HookAnswer; logs?: readonly string[]; last: boolean }
  | { t: "state"; q: number; op: "get"; hook: string; key: string }
  | { t: "state"; q: number; op: "set"; hook: string; key: string; value: unknown };
