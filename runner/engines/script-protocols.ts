import type { AnyCtx, Point } from "../../core/events.js";
import type { Decision } from "../../core/hook.js";
import type { ProcessResult } from "./command-process.js";

/** What a script written for a coding agent is given for one call: its stdin and the env that agent sets. */
export interface ScriptCall {
  stdin: string;
  env: Record<string, string>;
}

/**
 * How a command hook written for a coding agent's own hooks is spoken to, so it runs under
 * hookyard unchanged: the input it reads, the env it expects, that agent's matcher strings, and how
 * its exit code and output read as a decision. A command entry's `profile` names one; the agent's
 * adapter provides it (adapters/script-protocols.ts registers them), so the engine knows no agent.
 */
export interface ScriptProtocol {
  readonly name: string;
  /** The points that agent has an event for: the ones such a hook may list. */
  readonly points: readonly Point[];
  /** What is wrong with a matcher string in that agent's form, or undefined. */
  matcherIssue(matcher: string): string | undefined;
  /**
   * Once per hook: what a call at `point` gives the script, or undefined when that agent's matcher
   * says it does not run there (tested before any process starts).
   */
  caller(
    matcher: string | undefined,
    root: string,
  ): (point: Point, ctx: AnyCtx, log: (message: string) => void) => ScriptCall | undefined;
  /** The script's exit code and output, read by that agent's rules. */
  answer(
    point: Point,
    ctx: AnyCtx,
    result: ProcessResult,
    hook: string,
    log: (message: string) => void,
  ): Decision | undefined;
}

const registered = new Map<string, ScriptProtocol>();

/**
 * Called by every entry (the library's, the CLI's, the daemon's) before hookyard.json is read. A
 * profile nobody registered is a config error, and its hook fails closed like any other.
 */
export function registerScriptProtocol(protocol: ScriptProtocol): void {
  registered.set(protocol.name, protocol);
}

export function scriptProtocol(name: string): ScriptProtocol | undefined {
  return registered.get(name);
}

export function scriptProtocolNames(): string[] {
  return [...registered.keys()];
}
