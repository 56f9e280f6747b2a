import type * as z from "zod";

const messages = {
  RUN_ERR_HOOK_THREW: "Hook threw",
  RUN_ERR_HOOK_TIMEOUT: "Hook timed out",
  RUN_ERR_HOOK_LOAD: "Hook failed to load",
  RUN_ERR_HOOK_INVALID: "Hook definition is invalid",
  RUN_ERR_EFFECT_DROPPED: "An effect was not allowed at its point, or a rewrite was invalid, and was dropped",
  RUN_ERR_BAD_DECISION: "Hook returned something that is not a decision",
  RUN_ERR_COMMAND_FAILED: "Command hook failed",
  RUN_ERR_HTTP_FAILED: "HTTP hook failed",
  RUN_ERR_CONFIG_INVALID: "hookyard.json is invalid",
  RUN_ERR_CONFIG_UNREADABLE: "hookyard.json could not be read",
  RUN_ERR_BAD_MATCHER: "Matcher is invalid",
  RUN_ERR_MATCHER_TIMEOUT: "A matcher ran out of its time budget on an input; the hook ran",
  RUN_ERR_STATE_INVALID: "State value is not JSON-serialisable",
  RUN_ERR_STATE_CORRUPT: "State file is not valid JSON",
  RUN_ERR_SCRIPT_INVALID: "Model script is invalid",
  RUN_ERR_MODEL_FAILED: "Model call failed",
  RUN_ERR_RUN_NOT_FOUND: "No run has that id",
  RUN_ERR_RUN_CORRUPT: "A run's record is damaged",
  RUN_ERR_RUN_UNFINISHED: "The run did not finish (it crashed or was killed)",
  RUN_ERR_RUN_RECORD: "The run's record could not be written",
  RUN_ERR_BAD_CTX: "ctx does not match its point's schema",
  RUN_ERR_CLOSED: "Hooks were closed",
  RUN_ERR_SANDBOX: "A sandboxed hook failed in the sandbox (memory, crash, result, quarantine)",
  RUN_ERR_LOCK_INVALID: "hookyard.lock is invalid",
  RUN_ERR_STORE_MISMATCH: "A community hook's bytes in the store do not match the lockfile",
  RUN_ERR_NOT_INSTALLED: "A community hook in the lockfile is not in the store yet",
  RUN_ERR_AGENT_INPUT: "A coding agent's hook input is not what its protocol sends",
  RUN_ERR_MODEL_UNKNOWN: "A hook names a model hookyard does not know, or its script cannot be read",
  RUN_ERR_TOOL_UNKNOWN: "An agent hook names a tool hookyard does not have",
  RUN_ERR_TOOL_NOT_READONLY: "An agent hook asks for a tool that writes or runs commands",
  RUN_ERR_AGENT_NO_VERDICT: "An agent hook's reviewer gave no verdict within its steps",
  RUN_ERR_VERDICT_INVALID: "An agent or judge hook's model answered something that is not a verdict",
} as const;

export type RunnerErrorCode = keyof typeof messages;

export class RunnerError extends Error {
  override readonly name = "RunnerError";
  constructor(
    readonly code: RunnerErrorCode,
    message: string = messages[code],
    options?: ErrorOptions & { hook?: string; point?: string },
  ) {
    super(message, options);
    this.hook = options?.hook;
    this.point = options?.point;
  }
  readonly hook: string | undefined;
  readonly point: string | undefined;
}

export const runnerErrorCodes = Object.keys(messages) as RunnerErrorCode[];

/** The message of anything thrown; never throws itself (a hook may throw a Proxy or an object without a toString). */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "(a thrown value that cannot be shown as text)";
  }
}

/**
 * A hook or config entry that did not load: reported by name, and the rest still load. Unless it is
 * only a setting, it stays in the chains as a failing hook (see broken-hook.ts): a guard that cannot
 * load must not vanish.
 */
export interface LoadProblem {
  name: string;
  code: RunnerErrorCode;
  message: string;
  file?: string;
  /** The points it declares, when they could still be read; unknown means every blockable point. */
  points?: readonly string[];
  /** What hookyard.json says of it (`onError`), when that could still be read. */
  onError?: unknown;
  /** A setting (hookyard.json's `sandbox`), not a hook: reported, never a failing hook. */
  setting?: true;
  /** The one command or edit that fixes it, shown after the message. */
  fix?: string;
}

/** "path.to.field: what is wrong; …", each path under `prefix` when given. */
export function describeIssues(error: z.ZodError, prefix?: string): string {
  return error.issues
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((p) => p !== undefined && p !== "").join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** fetch says only "fetch failed"; why (ECONNREFUSED, ENOTFOUND, a timeout) is in its cause. */
export function fetchFailureText(error: unknown): string {
  const { message, cause } = error as Error;
  return cause instanceof Error ? `${message}: ${cause.message}` : message;
}
