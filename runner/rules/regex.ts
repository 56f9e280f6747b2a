import { createContext, Script } from "node:vm";

/** A rule's pattern is a line, not a program: longer ones are refused at load. */
export const maxPatternLength = 1_000;
/** A regex sees at most this much of a field; commands, paths and edits fit, whole files are cut. */
export const maxInputLength = 100_000;
/** The time all regex tests of one event may take before the one running is stopped. */
export const matchBudgetMs = 50;

/**
 * Compiles a rule's pattern, or returns why it cannot be used: too long, not a JavaScript regex,
 * or a repeated group that itself repeats ("(a+)+", "(?:x*y)*"), the shape that backtracks
 * exponentially on a near miss. Other slow patterns are caught by the time budget of `runBounded`.
 */
export function compilePattern(pattern: string, flags: string): RegExp | string {
  if (pattern.length > maxPatternLength) {
    return `is ${pattern.length} characters long; at most ${maxPatternLength} are allowed`;
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, flags);
  } catch (error) {
    return `is not a valid JavaScript regular expression (${(error as Error).message})`;
  }
  if (hasNestedQuantifier(pattern)) {
    return "repeats a group that itself repeats (like (a+)+), which can take exponential time; repeat the inner part only";
  }
  return regex;
}

/** True when a quantified group holds an unbounded quantifier, at any depth. */
function hasNestedQuantifier(source: string): boolean {
  // Per open group: whether it holds a quantifier. `closed` is the group that just ended, if any.
  const open: boolean[] = [];
  let closed: boolean | undefined;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === "\\") {
      i++;
      closed = undefined;
    } else if (inClass) {
      if (char === "]") inClass = false;
    } else if (char === "[") {
      inClass = true;
      closed = undefined;
    } else if (char === "(") {
      open.push(false);
      closed = undefined;
    } else if (char === ")") {
      closed = open.pop() ?? false;
      if (closed && open.length > 0) open[open.length - 1] = true;
    } else {
      const length = quantifierLength(source, i);
      if (length === 0) {
        closed = undefined;
        continue;
      }
      if (closed) return true;
      if (open.length > 0) open[open.length - 1] = true;
      i += length - 1;
      closed = undefined;
    }
  }
  return false;
}

/** The length of an unbounded or ranged quantifier at `i` ("*", "+", "{2,}", "{1,5}", with a lazy "?"), else 0. */
function quantifierLength(source: string, i: number): number {
  const char = source[i];
  let length = 0;
  if (char === "*" || char === "+") length = 1;
  else if (char === "{") {
    const range = /^\{(\d+),(\d*)\}/.exec(source.slice(i, i + 24));
    if (range && (range[2] === "" || Number(range[2]) > Number(range[1]))) length = range[0].length;
  }
  if (length > 0 && source[i + length] === "?") length++;
  return length;
}

export interface RegexTest {
  regex: RegExp;
  text: string;
}

type Scope = { tests: readonly RegexTest[]; results: Array<boolean | "timeout">; at: number };

// One context and one compiled loop for the process: the cost of a call is the timer, not a compile.
const scope = createContext({ tests: [], results: [], at: 0 } satisfies Scope) as Scope;
const loop = new Script(
  "for (; at < tests.length; at++) results[at] = tests[at].regex.test(tests[at].text);",
);

/**
 * Runs regex tests in order within a time budget: V8 cannot bound one regex, but it can interrupt a
 * script, so the tests run as one script with a timeout. A test that runs out of time answers
 * "timeout" and the others still run (each restart gets the budget again). Texts are cut to
 * `maxInputLength` before they are tested.
 */
export function runBounded(tests: readonly RegexTest[]): Array<boolean | "timeout"> {
  const results: Array<boolean | "timeout"> = [];
  if (tests.length === 0) return results;
  scope.tests = tests.map(({ regex, text }) => ({ regex, text: text.slice(0, maxInputLength) }));
  scope.results = results;
  scope.at = 0;
  try {
    while (scope.at < tests.length) {
      try {
        loop.runInContext(scope, { timeout: matchBudgetMs });
      } catch (error) {
        if ((error as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
        results[scope.at] = "timeout";
        scope.at++;
      }
    }
  } finally {
    // Texts can be large: the shared scope keeps none of them between events.
    scope.tests = [];
    scope.results = [];
  }
  return results;
}
