import type { AnyCtx, Point } from "../../core/events.js";
import { matchBudgetMs, type RegexTest, runBounded } from "../../core/regex.js";
import type { CompiledCondition, CompiledRule } from "./compile.js";
import { isToolPoint } from "./fields.js";

/** A rule whose string tests passed, with the regex tests it still needs, each named for messages. */
interface Candidate {
  rule: CompiledRule;
  tests: RegexTest[];
  labels: string[];
}

/**
 * The rules that hold at `point` for `ctx`: the event and tools fit, and every condition holds. String
 * operators are tested first; the regexes of all the rules left run together within a time budget. A
 * rule whose regex runs out of time on this input is reported; a block rule then applies (fails
 * closed: an input crafted to be slow must not get past it), a warning does not. Either way it is
 * tested again on the next event: a slow input never switches a rule off.
 */
export function matchingRules(
  rules: readonly CompiledRule[],
  point: Point,
  ctx: AnyCtx,
  report: (message: string) => void,
): CompiledRule[] {
  const candidates: Candidate[] = [];
  const tools = isToolPoint(point) ? toolNames(ctx) : undefined;
  for (const rule of rules) {
    if (!rule.points.has(point)) continue;
    const candidate: Candidate = { rule, tests: [], labels: [] };
    if (tools) {
      if (!rule.toolSets.every((set) => tools.some((name) => set.has(name)))) continue;
      if (rule.toolPattern) {
        if (typeof ctx.tool !== "string") continue;
        candidate.tests.push({ regex: rule.toolPattern, text: ctx.tool });
        candidate.labels.push("matcher");
      }
    }
    if (rule.conditions.every((condition) => holds(condition, point, ctx, candidate)))
      candidates.push(candidate);
  }

  const results = runBounded(candidates.flatMap((candidate) => candidate.tests));
  const matched: CompiledRule[] = [];
  let at = 0;
  for (const { rule, tests, labels } of candidates) {
    const answers = results.slice(at, at + tests.length);
    at += tests.length;
    const late = answers.indexOf("timeout");
    if (late !== -1) {
      const applies = rule.action === "block";
      report(
        `rule "${rule.name}" (${rule.file}): ${labels[late]} took more than ${matchBudgetMs} ms on this input ` +
          `and was stopped; ${applies ? "it blocks, to be safe" : "its warning is skipped"} (simplify the pattern)`,
      );
      if (applies) {
        matched.push({
          ...rule,
          message: `${rule.message}\n(hookyard could not check this rule within ${matchBudgetMs} ms on this input, so it applies.)`,
        });
      }
      continue;
    }
    if (answers.every((answer) => answer === true)) matched.push(rule);
  }
  return matched;
}

/** A string test's answer; a regex test is queued on the candidate and counts as holding for now. */
function holds(condition: CompiledCondition, point: Point, ctx: AnyCtx, candidate: Candidate): boolean {
  const text = condition.readers.get(point)?.(ctx);
  // A field the event lacks (no `command` in a write) fails every operator, not_contains too.
  if (text === undefined) return false;
  const { pattern } = condition;
  switch (condition.operator) {
    case "regex_match":
      candidate.tests.push({ regex: condition.regex as RegExp, text });
      candidate.labels.push(condition.patternField);
      return true;
    case "contains":
      return text.includes(pattern);
    case "not_contains":
      return !text.includes(pattern);
    case "equals":
      return text === pattern;
    case "starts_with":
      return text.startsWith(pattern);
    case "ends_with":
      return text.endsWith(pattern);
  }
}

/**
 * The tool's name, and the coding agent's own name for it when an adapter kept it: the claude
 * profile keeps it as `ctx.agent.tool` (Edit for our write_file); `tool_name` for other adapters.
 */
function toolNames(ctx: AnyCtx): string[] {
  const agent = ctx.agent as { tool?: unknown } | undefined;
  return [ctx.tool, ctx.tool_name, agent?.tool].filter((name): name is string => typeof name === "string");
}
