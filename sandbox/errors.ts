/**
 * The sandbox's failure codes. A hook's own failure comes back as an answer carrying one of them
 * (the sandbox never throws for a hook); `SandboxError` is thrown only when the sandbox itself
 * cannot start (a missing build, a missing Node flag).
 */
const meanings = {
  SANDBOX_ERR_THREW: "The hook threw, or its promise rejected",
  SANDBOX_ERR_TIMEOUT: "The hook ran past its CPU or wall-time limit; its isolate was disposed",
  SANDBOX_ERR_MEMORY:
    "The hook ran past its memory limit, or was stopped for time with its heap at 80% of it or more; its isolate was disposed",
  SANDBOX_ERR_CRASHED: "The sandbox process died while the hook was running",
  SANDBOX_ERR_STARTUP:
    "The sandbox process did not start (in time, or at all) before the hook could run; the hook did not run",
  SANDBOX_ERR_RESULT: "The hook returned something that is not a JSON decision object, or too much of it",
  SANDBOX_ERR_CTX_TOO_LARGE: "The ctx is larger than the hook's maxCtxBytes",
  SANDBOX_ERR_COMPILE:
    "The bundle did not load: a syntax error, an import, a throw at top level, or no defineHook default export",
  SANDBOX_ERR_NO_HANDLER: "The hook has no handler for this point",
  SANDBOX_ERR_QUARANTINED: "The hook failed its isolate too often and does not run again this session",
  SANDBOX_ERR_CLOSED: "The sandbox was closed",
  SANDBOX_ERR_NODE_FLAGS: "The process that runs isolates was started without --no-node-snapshot",
  SANDBOX_ERR_UNSUPPORTED_NODE: "This Node has no isolated-vm binary: hookyard runs on Node 22, 24 and 26",
  SANDBOX_ERR_HOST_MISSING: "The sandbox process's script is not built",
  SANDBOX_ERR_OPTIONS: "The sandbox's options or a hook given to it are invalid",
} as const;

export type SandboxErrorCode = keyof typeof meanings;

export const sandboxErrorCodes = Object.keys(meanings) as SandboxErrorCode[];

/** A short meaning per code, for docs and messages. */
export function sandboxErrorMeaning(code: SandboxErrorCode): string {
  return meanings[code];
}

export class SandboxError extends Error {
  override readonly name = "SandboxError";
  constructor(
    readonly code: SandboxErrorCode,
    message: string = meanings[code],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Failures of the isolate itself rather than of the hook's logic: these count towards quarantine. */
export const isolateFailureCodes: ReadonlySet<SandboxErrorCode> = new Set([
  "SANDBOX_ERR_TIMEOUT",
  "SANDBOX_ERR_MEMORY",
  "SANDBOX_ERR_CRASHED",
]);
