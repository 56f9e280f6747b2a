import { legalEffects, type Point } from "../../core/events.js";
import type { Decision } from "../../core/hook.js";
import type { CompiledRule } from "./compile.js";

/** Rule messages reach the model; coding agents cap hook output for it at this length. */
export const maxMessageLength = 10_000;

/**
 * What the matched rules decide at `point`. Block rules block where the point can (the message is the
 * reason the model or the user reads) and ask for another turn at turn_after (the message is that
 * turn's input). Warn rules become a notice for the user and an inject for the model's next request.
 * Each message is tagged with its rule's name.
 */
export function rulesDecision(point: Point, matched: readonly CompiledRule[]): Decision | undefined {
  if (matched.length === 0) return undefined;
  const legal = legalEffects(point);
  const decision: Decision = {};
  const blocks = matched.filter((rule) => rule.action === "block");
  const warnings = matched.filter((rule) => rule.action === "warn");
  if (blocks.length > 0) {
    const text = messages(blocks);
    if (legal.has("block")) decision.block = text;
    else if (legal.has("continue")) decision.continue = text;
  }
  if (warnings.length > 0) {
    const text = messages(warnings);
    decision.notice = text;
    if (legal.has("inject")) decision.inject = text;
  }
  return decision;
}

function messages(rules: readonly CompiledRule[]): string {
  const text = rules.map((rule) => `[${rule.name}] ${rule.message}`).join("\n\n");
  return text.length > maxMessageLength ? `${text.slice(0, maxMessageLength - 1)}…` : text;
}
