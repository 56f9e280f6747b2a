import * as z from "zod";
import { describeIssues, RunnerError } from "../../core/errors.js";
import { blockable, type Point } from "../../core/events.js";
import type { Decision } from "../../core/hook.js";

/** What a reviewing sub-agent (the `agent` engine) answers last: one JSON object, nothing else. */
export const agentVerdictSchema = z.discriminatedUnion("verdict", [
  z.strictObject({ verdict: z.literal("allow"), reason: z.string().min(1).optional() }),
  z.strictObject({ verdict: z.literal("block"), reason: z.string().min(1) }),
  z.strictObject({ verdict: z.literal("ask"), reason: z.string().min(1) }),
]);

/** What a judge (the `judge` engine, a coding agent's `prompt` hook) answers: `{ ok, reason }`. */
export const judgeVerdictSchema = z.union([
  z.strictObject({ ok: z.literal(true), reason: z.string().optional() }),
  z.strictObject({ ok: z.literal(false), reason: z.string().min(1) }),
]);

export const agentVerdictFormat =
  'exactly one JSON object and nothing else: {"verdict":"allow"}, {"verdict":"block","reason":"<why>"} or {"verdict":"ask","reason":"<why>"}';
export const judgeVerdictFormat =
  'exactly one JSON object and nothing else: {"ok":true} to let it go ahead, or {"ok":false,"reason":"<why>"} to stop it';

/**
 * A model's answer, parsed strictly: a JSON object matching `schema`, whitespace around it
 * allowed, nothing else (no prose, no code fence). Anything else is RUN_ERR_VERDICT_INVALID.
 */
export function parseVerdict<S extends z.ZodType>(
  answer: string,
  schema: S,
  where: { hook: string; point: Point },
): z.infer<S> {
  const fail = (why: string) =>
    new RunnerError(
      "RUN_ERR_VERDICT_INVALID",
      `the model's verdict ${why}: ${JSON.stringify(answer.length > 200 ? `${answer.slice(0, 200)}…` : answer)}`,
      where,
    );
  let json: unknown;
  try {
    json = JSON.parse(answer.trim());
  } catch {
    throw fail("is not JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw fail(`is not a verdict (${describeIssues(parsed.error)})`);
  return parsed.data;
}

/** A judge's `ok: false`, or a reviewer's block, at a point: a block where blocking is legal, another turn at turn_after, else a notice. */
export function refusalAt(point: Point, reason: string): Decision {
  if (blockable(point)) return { block: reason };
  if (point === "turn_after") return { continue: reason };
  return { notice: reason };
}
