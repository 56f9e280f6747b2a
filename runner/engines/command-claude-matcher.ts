/** A test of one input field's value (a tool name, a session source, …). */
export type AgentMatch = (value: string) => boolean;

/** Names and `|` lists of names: compared exactly, as that agent does; anything else is a regex. */
const plainNames = /^[A-Za-z0-9_|]+$/;
/** A matcher is a short pattern; past this it is a mistake (or an attempt to make matching slow). */
const patternCap = 1_000;

/**
 * That agent's matcher semantics: absent, "" and "*" match everything; `Bash` and `Edit|Write`
 * match those names exactly; anything else (`Notebook.*`, `mcp__.*__write`) is an unanchored,
 * case-sensitive regex. Throws on a pattern that is not a valid regex.
 */
export function compileAgentMatcher(pattern: string | undefined): AgentMatch {
  if (pattern === undefined || pattern === "" || pattern === "*") return () => true;
  if (pattern.length > patternCap) throw new Error(`is longer than ${patternCap} characters`);
  if (plainNames.test(pattern)) {
    const names = new Set(pattern.split("|").filter((name) => name !== ""));
    return (value) => names.has(value);
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    throw new Error(`is not a valid regex (${(error as Error).message})`);
  }
  return (value) => regex.test(value);
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
