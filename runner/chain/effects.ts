import type * as z from "zod";
import { describeIssues, RunnerError } from "../../core/errors.js";
import {
  type AnyCtx,
  ctxSchema,
  type Effect,
  legalEffects,
  type Point,
  rewritableFields,
} from "../../core/events.js";
import { type Decision, decisionSchema } from "../../core/hook.js";
import { jsonDataIssue } from "../../core/json-data.js";
import type { CompiledHook } from "../compiled-hook.js";
import type { CtxJournal } from "./journal.js";
import type { ChainOutcome } from "./outcome.js";
import { scopeRewrite } from "./rewrite-grants.js";

/** Applies one hook's decision; every effect is checked alone, and an illegal one is dropped whole. */
export function applyDecision(
  hook: CompiledHook,
  point: Point,
  decision: Decision | undefined,
  journal: CtxJournal<AnyCtx>,
  outcome: ChainOutcome,
  warn: (message: string) => void,
): Effect[] {
  if (decision === undefined && !journal.changed) return [];
  const legal = legalEffects(point);
  const effects: Effect[] = [];
  const drop = (effect: string) => warn(`returned "${effect}", which is not allowed at ${point}; dropped`);

  if (decision?.rewrite) rewrite(hook, point, decision.rewrite, journal, outcome.ctx, warn);
  if (journal.changed) {
    const refusal = checkRewrite(point, journal, outcome.ctx);
    if (refusal) {
      journal.rollback();
      warn(`${refusal}; its changes were undone`);
    } else effects.push("rewrite");
  }
  if (!decision) return effects;

  if (decision.block !== undefined) {
    if (legal.has("block")) {
      effects.push("block");
      outcome.verdict = "block";
      outcome.blockedBy = { hook: hook.name, reason: decision.block };
    } else drop("block");
  }
  for (const effect of ["ask", "continue", "inject", "notice"] as const) {
    const text = decision[effect];
    if (text === undefined) continue;
    if (!legal.has(effect)) {
      drop(effect);
      continue;
    }
    effects.push(effect);
    const name = hook.name;
    if (effect === "ask") outcome.asks.push({ hook: name, reason: text });
    else if (effect === "continue") outcome.continues.push({ hook: name, reason: text });
    else (effect === "inject" ? outcome.injects : outcome.notices).push({ hook: name, text });
    if (effect === "ask" && outcome.verdict === "allow") outcome.verdict = "ask";
  }
  return effects;
}

/**
 * A returned `rewrite` goes through the journal like a mutation; any field not rewritable here
 * drops it whole. A hook with rewrite grants (sandboxed) keeps only the changes they allow.
 */
function rewrite(
  hook: CompiledHook,
  point: Point,
  returned: Record<string, unknown>,
  journal: CtxJournal<AnyCtx>,
  ctx: AnyCtx,
  warn: (message: string) => void,
): void {
  const refused = notRewritable(point, Object.keys(returned));
  if (refused) {
    warn(`returned a rewrite of ${refused.illegal}, where ${refused.allowed}; dropped`);
    return;
  }
  let fields = returned;
  if (hook.rewrites) {
    const scoped = scopeRewrite(point, ctx, returned, hook.rewrites);
    for (const refusal of scoped.refusals) warn(refusal);
    fields = scoped.fields;
  }
  for (const [field, value] of Object.entries(fields)) journal.view[field] = value;
}

/** The fields not rewritable at `point` ("tool, prompt") and what is ("only args may be rewritten"), or undefined. */
function notRewritable(point: Point, fields: string[]): { illegal: string; allowed: string } | undefined {
  const rewritable = rewritableFields(point);
  const illegal = fields.filter((field) => !rewritable.includes(field));
  if (illegal.length === 0) return undefined;
  const allowed = rewritable.length > 0 ? `only ${rewritable.join(", ")} may be` : "nothing may be";
  return { illegal: illegal.join(", "), allowed: `${allowed} rewritten` };
}

/** A reason to refuse the writes a hook made, or undefined when they are all legal and valid. */
function checkRewrite(point: Point, journal: CtxJournal<AnyCtx>, ctx: AnyCtx): string | undefined {
  const refused = notRewritable(point, [...journal.touched]);
  if (refused) return `changed ${refused.illegal} at ${point}, where ${refused.allowed}`;
  // Before the schema, which would read (run) a getter: what stays in the ctx must be JSON data.
  for (const field of journal.touched) {
    const own = Object.getOwnPropertyDescriptor(ctx, field);
    const issue =
      own && !("value" in own)
        ? `${field}: a getter or setter is not JSON data`
        : jsonDataIssue(own?.value, field);
    if (issue) return `rewrote ${field} into something invalid (${issue})`;
  }
  const shape = (ctxSchema(point) as z.ZodObject).shape;
  for (const field of journal.touched) {
    const result = (shape[field] as z.ZodType).safeParse(ctx[field]);
    if (!result.success) {
      const issue = result.error.issues[0];
      const where = [field, ...(issue?.path ?? [])].join(".");
      return `rewrote ${field} into something invalid (${where}: ${issue?.message})`;
    }
  }
  return undefined;
}

export function parseDecision(value: unknown, hook: CompiledHook, point: Point): Decision | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = decisionSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RunnerError(
    "RUN_ERR_BAD_DECISION",
    `returned an invalid decision (${describeIssues(parsed.error)})`,
    {
      hook: hook.name,
      point,
    },
  );
}
