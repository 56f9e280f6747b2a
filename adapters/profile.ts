import type { Point } from "../core/events.js";
import type { Hooks } from "../runner/load/load-hooks.js";

/**
 * A profile is one coding agent's hook protocol, both ways: which of its events fire which point,
 * its input read into a point's ctx, the chain's outcome written back as that agent reads it. Every
 * route (`exec` in its own process, the daemon, `serve`) goes through one, chosen by name
 * (`--profile <agent>`): adding an agent is adding a profile, not a route.
 */

/** The most input hookyard reads for one event: far beyond any tool call, short of a memory problem. */
export const maxInputBytes = 8 * 1024 * 1024;

/** A command hook's answer: what it prints on stdout and stderr, and its exit code. */
export interface EventAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * The part of a profile the exec client loads before it knows whether a daemon answers: light (no
 * zod, no runner), since its cost is paid on every event the agent fires.
 */
export interface ProfileEvents {
  readonly name: string;
  /** Every event the profile maps to a point, in the order `install-into` writes them. */
  readonly events: readonly string[];
  /** The point `event` fires; undefined for an event that passes through (answered with nothing). */
  point(event: string): Point | undefined;
  /**
   * Where the agent is about to act (a tool call, a prompt), the answer that refuses it because
   * nothing could check it, naming `why`; undefined where the agent goes on whatever is answered.
   */
  refusal(event: string, why: string): EventAnswer | undefined;
}

/** The hooks one event runs against: what a route holds loaded. */
export type EventHooks = Pick<Hooks, "dispatch"> & { readonly root?: string };

export interface AgentProfile extends ProfileEvents {
  /** The agent's stdin read as its input for `event`, checked before any hook runs; throws AgentInputError. */
  parseInput(event: string, text: string): unknown;
  /** One event, start to end: the input as a ctx, the chain run, its outcome in the agent's form. */
  handle(hooks: EventHooks, event: string, input: unknown): Promise<EventAnswer>;
  /** The answer that says nothing (the agent goes on as if no hook were installed). */
  emptyAnswer(): EventAnswer;
  /** An answer that goes on but shows `message` to the agent's user (Claude Code's `systemMessage`). */
  notice(message: string): EventAnswer;
}
