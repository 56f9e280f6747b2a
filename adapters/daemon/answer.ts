import {
  type ClaudeAnswer,
  ClaudeInputError,
  capText,
  claudeInputToCtx,
  uncheckedRefusal,
} from "../claude/protocol/index.js";
import type { EventAnswer } from "./protocol.js";

/**
 * What `hookyard exec` answers, shared by its two routes (in its own process, and in the
 * workspace's daemon) so both print the same bytes.
 */

/** The agent's stdin as its input, checked before any hook loads or runs; throws ClaudeInputError. */
export function parseClaudeInput(event: string, text: string): unknown {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    const why = (error as Error).message.replace(/\s+/g, " ");
    throw new ClaudeInputError(`stdin is not valid JSON: ${why}`);
  }
  claudeInputToCtx(input, event);
  return input;
}

/**
 * Where the agent is about to act, input no hook can check is refused: a model must not get a
 * tool call or a prompt past the guards by making it too large or too deep to read. Elsewhere
 * undefined: the caller reports the error.
 */
export function uncheckedAnswer(event: string, error: unknown): EventAnswer | undefined {
  const refusal = error instanceof ClaudeInputError ? uncheckedRefusal(event, error.message) : undefined;
  return refusal && fromClaude(refusal);
}

/** How the CLI prints an error that ends a command: one line, and its exit code (cli/error-message.ts). */
export type RenderError = (error: unknown) => { line: string; exitCode: number };

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
export function noHookRanAnswer(event: string, error: unknown, renderError: RenderError): EventAnswer {
  const line = renderError(error).line;
  const why = line.replace(/^hookyard: /, "");
  const refusal = uncheckedRefusal(event, `the workspace's hooks could not be loaded: ${why}`);
  if (refusal) return { ...fromClaude(refusal), stderr: `${line}\n` };
  const message = `hookyard: no hook ran: ${why}`;
  return {
    stdout: `${JSON.stringify({ systemMessage: capText(message) })}\n`,
    stderr: `${line}\n`,
    exitCode: 0,
  };
}

export function fromClaude(answer: ClaudeAnswer): EventAnswer {
  return { stdout: answer.stdout, stderr: answer.stderr, exitCode: answer.exitCode };
}
