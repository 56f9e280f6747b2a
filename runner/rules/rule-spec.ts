import { type core, z } from "zod";
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

/** Checks the front matter's shape; throws RuleFileError naming the first wrong field as the file writes it. */
export function readRuleSpec(fields: Record<string, unknown>): RuleSpec {
  const parsed = ruleSpecSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0] as core.$ZodIssue;
  if (issue.code === "unrecognized_keys") {
    const nested = issue.path.length > 0;
    const known = Object.keys(ruleSpecSchema.shape).join(", ");
    return fail(
      fieldPath([...issue.path, issue.keys[0] ?? ""]),
      nested
        ? "is not a condition field (field, operator, pattern)"
        : `is not a rule field (fields: ${known})`,
    );
  }
  return fail(issue.path.length > 0 ? fieldPath(issue.path) : "front matter", issue.message);
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
