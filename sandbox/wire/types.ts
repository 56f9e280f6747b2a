/** The data both processes speak of: a hook as the sandbox process loads it, a batch, an answer. */
import type { Grant } from "../capabilities.js";
import type { SandboxErrorCode } from "../errors.js";

export interface SandboxLimits {
  /** The isolate's heap limit. isolated-vm treats it as a guideline: a hostile hook may use 2-3 times it. */
  memoryMb: number;
  /** CPU time per call. */
  cpuMs: number;
  /** Wall time per call, including the time the host spends on the hook's API calls. */
  wallMs: number;
  /** The ctx JSON a hook is given, in UTF-8 bytes. */
  maxCtxBytes: number;
  /** The decision plus a changed ctx, as JSON, in UTF-8 bytes. */
  maxResultBytes: number;
  /** What one call may log, in UTF-8 bytes (lines past it are dropped, and the drop is said). */
  maxLogBytes: number;
}

export type HookAnswer =
  | {
      hook: string;
      status: "ok";
      decision: unknown;
      /** Present only when the hook changed its copy of ctx. */
      ctx?: unknown;
      ms: number;
    }
  | { hook: string; status: "error"; code: SandboxErrorCode; message: string; ms: number };

/**
 * What the synchronous chain decided, as a background hook sees it (`api.outcome`): core's
 * ChainVerdict as plain data, since the sandbox knows nothing of decisions.
 */
export interface SyncChainVerdict {
  verdict: string;
  hook?: string;
  reason?: string;
}

/** A hook as the runtime loads it: the bundle already decoded, the limits resolved. */
export interface HookSpec {
  id: string;
  name: string;
  source: string;
  grants: readonly Grant[];
  limits: SandboxLimits;
  config?: Readonly<Record<string, unknown>>;
}

export interface RunRequest {
  point: string;
  ctxJson: string;
  outcome?: SyncChainVerdict | undefined;
}
