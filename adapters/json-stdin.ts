import { AgentInputError } from "./agent-input-error.js";
import { capText } from "./claude/protocol/text.js";
import type { EventAnswer } from "./profile.js";

/**
 * A profile's parseInput: the agent's stdin as one JSON document, checked by `check` (that
 * agent's mapping to a ctx, which throws AgentInputError), so bad input is refused before a hook runs.
 */
export function parseJsonStdin(text: string, check: (input: unknown) => unknown): unknown {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    const why = (error as Error).message.replace(/\s+/g, " ");
    throw new AgentInputError(`stdin is not valid JSON: ${why}`);
  }
  check(input);
  return input;
}

/** A profile's notice: goes on, and shows `message` to the agent's user in the one JSON field that agent reads for it. */
export function jsonNotice(field: "systemMessage" | "notice", message: string): EventAnswer {
  return { stdout: `${JSON.stringify({ [field]: capText(message) })}\n`, stderr: "", exitCode: 0 };
}
