import { type BoundedAnswer, compilePattern, testBounded } from "../../../core/regex.js";

/** A test of one input field's value (a tool name, a session source, …); "timeout" when the budget stopped it. */
export type AgentMatch = (value: string) => BoundedAnswer;

/** Names and `|` lists of names: compared exactly, as that agent does; anything else is a regex. */
const plainNames = /^[A-Za-z0-9_|]+$/;

/**
 * That agent's matcher semantics: absent, "" and "*" match everything; `Bash` and `Edit|Write`
 * match those names exactly; anything else (`Notebook.*`, `mcp__.*__write`) is an unanchored,
 * case-sensitive regex, compiled and run under the one regex policy (core/regex.ts). Throws on a
 * pattern that policy refuses (too long, not a regex, exponential), saying why.
 */
export function compileAgentMatcher(pattern: string | undefined): AgentMatch {
  if (pattern === undefined || pattern === "" || pattern === "*") return () => true;
  const regex = compilePattern(pattern);
  if (typeof regex === "string") throw new Error(regex);
  if (plainNames.test(pattern)) {
    const names = new Set(pattern.split("|").filter((name) => name !== ""));
    return (value) => names.has(value);
  }
  return (value) => testBounded(regex, value);
}

/** Why `pattern` cannot be used, or undefined. */
export function agentMatcherIssue(pattern: string): string | undefined {
  try {
    compileAgentMatcher(pattern);
    return undefined;
  } catch (error) {
    return `matcher ${JSON.stringify(pattern.slice(0, 80))} ${(error as Error).message}`;
  }
}
