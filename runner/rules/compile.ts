import { legalEffects, type Point } from "../../core/events.js";
import { compilePattern } from "../../core/regex.js";
import { type FieldReader, fieldReader, fieldsAt, isToolPoint } from "./fields.js";
import type { EventTarget, FormatSpec } from "./formats.js";
import { readFrontMatter } from "./front-matter.js";
import { RuleFileError } from "./rule-file-error.js";
import { type Operator, type RuleSpec, readRuleSpec } from "./rule-spec.js";

export interface CompiledCondition {
  field: string;
  operator: Operator;
  pattern: string;
  regex: RegExp | undefined;
  /** Where the pattern is written, for messages: `conditions[1].pattern`, or `pattern` for the one-line form. */
  patternField: string;
  /** How the field is read at each of the rule's points that carries it. */
  readers: ReadonlyMap<Point, FieldReader>;
}

/** One rule file, ready to test. `enabled: false` rules are compiled too (a broken one is still a problem). */
export interface CompiledRule {
  name: string;
  file: string;
  enabled: boolean;
  action: "warn" | "block";
  message: string;
  points: ReadonlySet<Point>;
  /** At tool points, each set must hold the tool's name (ours, or the agent's own `tool_name`). */
  toolSets: ReadonlyArray<ReadonlySet<string>>;
  /** `matcher`: a regex the tool's name must match, at tool points. */
  toolPattern: RegExp | undefined;
  conditions: readonly CompiledCondition[];
}

/** What the one-line `pattern` form tests, by event, as the plugin defines it. */
const oneLineFields: Record<string, string> = {
  bash: "command",
  file: "new_text",
  prompt: "prompt",
  stop: "answer",
  all: "content",
};

const invalid = (field: string, message: string) => new RuleFileError("RUN_ERR_HOOK_INVALID", field, message);

/** Reads one rule file; throws RuleFileError naming the field that is wrong. */
export function compileRuleFile(
  text: string,
  file: string,
  defaultName: string,
  format: FormatSpec,
): CompiledRule {
  const { fields, body } = readFrontMatter(text);
  // Checked before the shape too, so an unknown event is reported with the file's other mistakes.
  const event = fields.event;
  const spec = readRuleSpec(
    fields,
    typeof event === "string" && event !== "" && !Object.hasOwn(format.events, event)
      ? [{ field: "event", message: unknownEvent(event, format) }]
      : [],
  );
  const target = eventTarget(spec, format);
  const name = spec.name ?? defaultName;
  return {
    name,
    file,
    enabled: spec.enabled !== "false",
    action: spec.action,
    message: body || `Rule "${name}" matched.`,
    points: new Set(target.points),
    ...toolFilter(spec, target, format),
    conditions: compileConditions(spec, target.points, format),
  };
}

function unknownEvent(event: string, format: FormatSpec): string {
  return `"${event}" is not an event here; use one of: ${Object.keys(format.events).join(", ")}`;
}

/** The event's points; a block rule must name an event where blocking means something. */
function eventTarget(spec: RuleSpec, format: FormatSpec): EventTarget {
  const target = Object.hasOwn(format.events, spec.event) ? format.events[spec.event] : undefined;
  if (!target) throw invalid("event", unknownEvent(spec.event, format));
  const cannotBlock = target.points.filter(
    (point) => !legalEffects(point).has("block") && point !== "turn_after",
  );
  if (spec.action === "block" && cannotBlock.length > 0) {
    throw invalid(
      "action",
      "block works at tool_before and turn_before (it refuses the call or the prompt) and at turn_after " +
        `(the agent takes another turn); event "${spec.event}" fires at ${cannotBlock.join(", ")}: use warn`,
    );
  }
  return target;
}

/** Which tools the rule is about: its event's (bash, file), `tool_matcher` names, a `matcher` regex. */
function toolFilter(
  spec: RuleSpec,
  target: EventTarget,
  format: FormatSpec,
): Pick<CompiledRule, "toolSets" | "toolPattern"> {
  if ((spec.matcher !== undefined || spec.tool_matcher !== undefined) && !target.points.some(isToolPoint)) {
    const field = spec.matcher !== undefined ? "matcher" : "tool_matcher";
    throw invalid(field, `names tools, but event "${spec.event}" is not about a tool call`);
  }
  const toolSets = target.tools ? [new Set(target.tools)] : [];
  if (spec.tool_matcher !== undefined && spec.tool_matcher.trim() !== "*") {
    toolSets.push(new Set(spec.tool_matcher.split("|").map((name) => name.trim())));
  }
  if (spec.matcher === undefined) return { toolSets, toolPattern: undefined };
  const toolPattern = compilePattern(spec.matcher, format.flags);
  if (typeof toolPattern === "string") throw new RuleFileError("RUN_ERR_BAD_MATCHER", "matcher", toolPattern);
  return { toolSets, toolPattern };
}

/** `conditions`, or the one-line `pattern`: each field must exist at one of the points, each regex compile. */
function compileConditions(
  spec: RuleSpec,
  points: readonly Point[],
  format: FormatSpec,
): CompiledCondition[] {
  if (spec.pattern !== undefined && spec.conditions !== undefined) {
    throw invalid("pattern", "use either pattern or conditions, not both");
  }
  const oneLineField = oneLineFields[spec.event];
  if (spec.pattern !== undefined && oneLineField === undefined) {
    const events = Object.keys(oneLineFields).join(", ");
    throw invalid("pattern", `the one-line form is for events ${events}; write conditions`);
  }
  const written =
    spec.pattern !== undefined
      ? [{ field: oneLineField as string, operator: "regex_match" as const, pattern: spec.pattern, at: "" }]
      : (spec.conditions ?? []).map((condition, i) => ({ ...condition, at: `conditions[${i}].` }));

  return written.map(({ field, operator, pattern, at }): CompiledCondition => {
    const fieldLabel = at ? `${at}field` : "pattern";
    const patternField = `${at}pattern`;
    const readers = new Map<Point, FieldReader>();
    for (const point of points) {
      const reader = fieldReader(field, point);
      if (reader) readers.set(point, reader);
    }
    if (readers.size === 0) {
      const known = [...new Set(points.flatMap(fieldsAt))].join(", ");
      throw invalid(fieldLabel, `"${field}" is not a field of event "${spec.event}"; fields there: ${known}`);
    }
    if (operator !== "regex_match")
      return { field, operator, pattern, regex: undefined, patternField, readers };
    const regex = compilePattern(pattern, format.flags);
    if (typeof regex === "string") throw new RuleFileError("RUN_ERR_BAD_MATCHER", patternField, regex);
    return { field, operator, pattern, regex, patternField, readers };
  });
}
