import { RunnerError } from "../../core/errors.js";
import { type AnyCtx, matchableFields, type Point, points } from "../../core/events.js";
import type { Matcher } from "../../core/hook.js";
import { compilePattern, matchBudgetMs, testBounded } from "../../core/regex.js";

/**
 * A matcher's test was stopped by the regex budget (core/regex.ts) on this ctx. It counts as a
 * match: the hook runs. A guard is written to block what its matcher selects; if a crafted, slow
 * input counted as "no match", that input would be exactly the one that skips the guard. Running
 * a hook that did not need to run costs a call; skipping a guard costs the check. The dispatcher
 * warns, naming the hook and the field, so the pattern can be simplified.
 */
export interface LateMatch {
  late: true;
  field: string;
  pattern: string;
}

/** true or false, or a LateMatch (which counts as true: test it with `=== false` or truthiness). */
export type MatchTest = (ctx: AnyCtx) => boolean | LateMatch;

export const always: MatchTest = () => true;

/**
 * Compiles `{ field: "regex" }` once per point, so dispatch only runs regexes. A field the point
 * does not carry is not tested there (a `tool` matcher does not stop a hook at agent_after); a field
 * the point carries but the ctx lacks fails the match. Every field must exist at one of the points,
 * except `agent.<key>`: see agentKey. Patterns go through the one regex policy (core/regex.ts):
 * one it refuses is RUN_ERR_BAD_MATCHER here, at load; tests run bounded at dispatch.
 */
export function compileMatcher(
  matcher: Matcher | undefined,
  hook: string,
  hookPoints: readonly Point[],
): Map<Point, MatchTest> {
  const tests = new Map<Point, MatchTest>();
  if (!matcher || Object.keys(matcher).length === 0) {
    for (const point of hookPoints) tests.set(point, always);
    return tests;
  }
  const compiled = Object.entries(matcher).map(([field, pattern]): FieldTest => {
    const key = agentKey(field);
    if (key === undefined && !hookPoints.some((point) => matchableFields(point).includes(field))) {
      throw new RunnerError(
        "RUN_ERR_BAD_MATCHER",
        `hook "${hook}": matcher field "${field}" exists at none of its points (${hookPoints.join(", ")})`,
        { hook },
      );
    }
    const re = compilePattern(pattern);
    if (typeof re === "string") {
      throw new RunnerError("RUN_ERR_BAD_MATCHER", matcherIssueText(hook, field, pattern, re), { hook });
    }
    return { field, key, re, pattern };
  });
  for (const point of hookPoints) {
    const here = compiled.filter((test) => testedAt(test, point));
    tests.set(point, here.length === 0 ? always : (ctx) => passesAll(ctx, here));
  }
  return tests;
}

/** What RUN_ERR_BAD_MATCHER says: which hook, field and pattern, why, and what to do (the reason ends with it). */
export function matcherIssueText(hook: string, field: string, pattern: string, reason: string): string {
  const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
  return `hook "${hook}": matcher "${field}" pattern ${JSON.stringify(shown)} ${reason}`;
}

/** Every field must match; the first that fails ends it. A stopped test counts as a match (LateMatch). */
function passesAll(ctx: AnyCtx, tests: readonly FieldTest[]): boolean | LateMatch {
  let late: LateMatch | undefined;
  for (const test of tests) {
    const answer = passes(ctx, test);
    if (answer === false) return false;
    if (answer === "timeout") late ??= { late: true, field: test.field, pattern: test.pattern };
  }
  return late ?? true;
}

/** The warning for a LateMatch, with the hook's name. */
export function lateMatchText(late: LateMatch): string {
  return (
    `ran: its matcher "${late.field}" took more than ${matchBudgetMs} ms on this input and was stopped, ` +
    `so it counts as a match (a guard still checks); simplify the pattern ${JSON.stringify(late.pattern.slice(0, 80))}`
  );
}

/** One field of a matcher; `key` is set for `agent.<key>`. */
interface FieldTest {
  field: string;
  key: string | undefined;
  re: RegExp;
  pattern: string;
}

/**
 * `agent.<key>` reads `ctx.agent[key]`: what an adapter keeps of the agent's own names
 * (`agent.tool` is "Edit" where `tool` is "write_file"). It is tested where `<key>` itself is a
 * field (agent.tool only at tool points), and at every point when no point has `<key>` (agent.event).
 */
function agentKey(field: string): string | undefined {
  return field.startsWith("agent.") && field.length > "agent.".length
    ? field.slice("agent.".length)
    : undefined;
}

const everyField = new Set(points.flatMap((point) => matchableFields(point)));

function testedAt({ field, key }: FieldTest, point: Point): boolean {
  if (key === undefined) return matchableFields(point).includes(field);
  return !everyField.has(key) || matchableFields(point).includes(key);
}

/** A ctx without `agent` (our own loop) fails an `agent.*` test, as a missing field does. */
function passes(ctx: AnyCtx, { field, key, re }: FieldTest): boolean | "timeout" {
  if (key === undefined) return field in ctx && testBounded(re, asText(ctx[field]));
  const agent = ctx.agent;
  return (
    typeof agent === "object" &&
    agent !== null &&
    key in agent &&
    testBounded(re, asText((agent as Record<string, unknown>)[key]))
  );
}

/** Non-string values are tested as JSON; cycles and bigints (which JSON.stringify refuses) still give text. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    const seen = new WeakSet<object>();
    return (
      JSON.stringify(value, (_key, inner: unknown) => {
        if (typeof inner === "bigint") return inner.toString();
        if (typeof inner !== "object" || inner === null) return inner;
        if (seen.has(inner)) return "[Circular]";
        seen.add(inner);
        return inner;
      }) ?? ""
    );
  }
}
