import * as z from "zod";
import { RuleFileError } from "./rule-file-error.js";

export const operators = [
  "regex_match",
  "contains",
  "equals",
  "not_contains",
  "starts_with",
  "ends_with",
] as const;
export type Operator = (typeof operators)[number];

const conditionSchema = z.strictObject({
  field: z.string().min(1),
  operator: z.enum(operators).default("regex_match"),
  pattern: z.string(),
});

/** A rule file's front matter. Every value is a string, as the failsafe YAML schema reads it. */
const ruleSpecSchema = z.strictObject({
  name: z.string().min(1).max(100).optional(),
  description: z.string().optional(),
  enabled: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
  event: z.string().min(1).default("all"),
  matcher: z.string().min(1).optional(),
  tool_matcher: z.string().min(1).optional(),
  pattern: z.string().optional(),
  conditions: z.array(conditionSchema).optional(),
  action: z.enum(["warn", "block"]).default("warn"),
});
export type RuleSpec = z.infer<typeof ruleSpecSchema>;

/** One wrong field of a rule file, named as the file writes it. */
export interface RuleMistake {
  field: string;
  message: string;
}

/**
 * Checks the front matter's shape. Every wrong field is reported at once (with `earlier`, what the
 * caller already found), so a file with three mistakes is fixed in one go; throws RuleFileError.
 */
export function readRuleSpec(
  fields: Record<string, unknown>,
  earlier: readonly RuleMistake[] = [],
): RuleSpec {
  const parsed = ruleSpecSchema.safeParse(fields);
  const mistakes = [...earlier, ...(parsed.success ? [] : parsed.error.issues.map(mistakeOf))];
  const [first, ...rest] = mistakes;
  if (first === undefined && parsed.success) return parsed.data;
  if (first === undefined) return fail("front matter", "is not valid");
  return fail(first.field, [first.message, ...rest.map((m) => `${m.field}: ${m.message}`)].join("; "));
}

function mistakeOf(issue: z.core.$ZodIssue): RuleMistake {
  if (issue.code === "unrecognized_keys") {
    const nested = issue.path.length > 0;
    const known = Object.keys(ruleSpecSchema.shape).join(", ");
    return {
      field: fieldPath([...issue.path, issue.keys.join(", ")]),
      message: nested
        ? "is not a condition field (field, operator, pattern)"
        : `is not a rule field (fields: ${known})`,
    };
  }
  return { field: issue.path.length > 0 ? fieldPath(issue.path) : "front matter", message: issue.message };
}

function fail(field: string, message: string): never {
  throw new RuleFileError("RUN_ERR_HOOK_INVALID", field, message);
}

/** ["conditions", 0, "operator"] → "conditions[0].operator". */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((step, i) => (typeof step === "number" ? `[${step}]` : `${i > 0 ? "." : ""}${String(step)}`))
    .join("");
}
