import { AgentInputError } from "../agent-input-error.js";
import type { AgentProfile, EventAnswer } from "../profile.js";

/**
 * What `hookyard exec` answers, shared by its two routes (in its own process, and in the
 * workspace's daemon) so both print the same bytes.
 */

/** How the CLI prints an error that ends a command: one line, and its exit code (cli/error-message.ts). */
export type RenderError = (error: unknown) => { line: string; exitCode: number };

/**
 * Where the agent is about to act, input no hook can check is refused: a model must not get a
 * tool call or a prompt past the guards by making it too large or too deep to read. Elsewhere
 * undefined: the caller reports the error.
 */
export function uncheckedAnswer(
  profile: AgentProfile,
  event: string,
  error: unknown,
): EventAnswer | undefined {
  return error instanceof AgentInputError ? profile.refusal(event, error.message) : undefined;
}

/** An error that ends the command, as the CLI prints it. */
export function errorAnswer(error: unknown, renderError: RenderError): EventAnswer {
  const rendered = renderError(error);
  return { stdout: "", stderr: `${rendered.line}\n`, exitCode: rendered.exitCode };
}

/**
 * The workspace itself did not load (hookyard.json is not JSON, .hookyard/hooks is a file): which
 * guards it holds cannot be known, so where the agent is about to act the call is refused, naming
 * what to fix, as for a hook that cannot load; elsewhere the agent goes on, told in its message field.
 */
export function noHookRanAnswer(
  profile: AgentProfile,
  event: string,
  error: unknown,
  renderError: RenderError,
): EventAnswer {
  const line = renderError(error).line;
  const why = line.replace(/^hookyard: /, "");
  const refusal = profile.refusal(event, `the workspace's hooks could not be loaded: ${why}`);
  if (refusal) return { ...refusal, stderr: `${line}\n` };
  return { ...profile.notice(`hookyard: no hook ran: ${why}`), stderr: `${line}\n` };
}
