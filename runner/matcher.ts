import { RunnerError } from "./errors.js";
import { type AnyCtx, matchableFields, type Point } from "./events.js";
import type { Matcher } from "./hook.js";

export type MatchTest = (ctx: AnyCtx) => boolean;

export const always: MatchTest = () => true;

/**
 * Compiles `{ field: "regex" }` once per point, so dispatch only runs regexes. A field the point
 * does not carry is not tested there (a `tool` matcher does not stop a hook at agent_after); a field
 * the point carries but the ctx lacks fails the match. Every field must exist at one of the points.
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
  const compiled = Object.entries(matcher).map(([field, pattern]) => {
    if (!hookPoints.some((point) => matchableFields(point).includes(field))) {
      throw new RunnerError(
        "RUN_ERR_BAD_MATCHER",
        `hook "${hook}": matcher field "${field}" exists at none of its points (${hookPoints.join(", ")})`,
        { hook },
      );
    }
    try {
      return [field, new RegExp(pattern)] as const;
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
    const fields = matchableFields(point);
    const here = compiled.filter(([field]) => fields.includes(field));
    tests.set(
      point,
      here.length === 0
        ? always
        : (ctx) => here.every(([field, re]) => field in ctx && re.test(asText(ctx[field]))),
    );
  }
  return tests;
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
