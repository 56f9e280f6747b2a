import { RunnerError } from "./errors.js";
import { type AnyCtx, matchableFields, type Point, points } from "./events.js";
import type { Matcher } from "./hook.js";

export type MatchTest = (ctx: AnyCtx) => boolean;

export const always: MatchTest = () => true;

/**
 * Compiles `{ field: "regex" }` once per point, so dispatch only runs regexes. A field the point
 * does not carry is not tested there (a `tool` matcher does not stop a hook at agent_after); a field
 * the point carries but the ctx lacks fails the match. Every field must exist at one of the points,
 * except `agent.<key>`: see agentKey.
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
    try {
      return { field, key, re: new RegExp(pattern) };
    } catch (error) {
      throw new RunnerError(
        "RUN_ERR_BAD_MATCHER",
        `hook "${hook}": matcher "${field}" is not a valid regex: ${pattern}`,
        {
          hook,
          cause: error,
        },
      );
    }
  });
  for (const point of hookPoints) {
    const here = compiled.filter((test) => testedAt(test, point));
    tests.set(point, here.length === 0 ? always : (ctx) => here.every((test) => passes(ctx, test)));
  }
  return tests;
}

/** One field of a matcher; `key` is set for `agent.<key>`. */
interface FieldTest {
  field: string;
  key: string | undefined;
  re: RegExp;
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
function passes(ctx: AnyCtx, { field, key, re }: FieldTest): boolean {
  if (key === undefined) return field in ctx && re.test(asText(ctx[field]));
  const agent = ctx.agent;
  return (
    typeof agent === "object" &&
    agent !== null &&
    key in agent &&
    re.test(asText((agent as Record<string, unknown>)[key]))
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
