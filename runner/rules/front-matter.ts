import { createRequire } from "node:module";
import type { YAMLError } from "yaml";
import { RuleFileError } from "./rule-file-error.js";

/**
 * yaml (72 modules, CommonJS under node) loads at the first rule file read, not with the rules
 * engine: a workspace without rule files (most) does not pay for it at every exec's start.
 */
let yaml: typeof import("yaml") | undefined;
function loadYaml(): typeof import("yaml") {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yaml;
}

const layout =
  "a rule file starts with a line ---, then its fields in YAML, then a line ---, then the message";

/**
 * Splits a rule file into its YAML front matter and its markdown body. The YAML is read with the
 * failsafe schema: every value is a string, a list or a map, exactly as written (a pattern `1e3`
 * stays "1e3"), and no tag can make the parser build anything else.
 */
export function readFrontMatter(text: string): { fields: Record<string, unknown>; body: string } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") throw new RuleFileError("RUN_ERR_HOOK_INVALID", "front matter", layout);
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (end === -1) {
    throw new RuleFileError("RUN_ERR_HOOK_INVALID", "front matter", `the closing --- is missing; ${layout}`);
  }
  const document = loadYaml().parseDocument(lines.slice(1, end).join("\n"), {
    schema: "failsafe",
    uniqueKeys: true,
  });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) throw new RuleFileError("RUN_ERR_HOOK_INVALID", "front matter", yamlProblem(problem));
  let fields: unknown;
  try {
    // Few aliases: a rule needs none, and each one can multiply the size of what is built.
    fields = document.toJS({ maxAliasCount: 10 });
  } catch (error) {
    throw new RuleFileError("RUN_ERR_HOOK_INVALID", "front matter", (error as Error).message);
  }
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    throw new RuleFileError("RUN_ERR_HOOK_INVALID", "front matter", `it is not a map of fields; ${layout}`);
  }
  return {
    fields: fields as Record<string, unknown>,
    body: lines
      .slice(end + 1)
      .join("\n")
      .trim(),
  };
}

/** The parser's message with the line counted in the file (the front matter starts on line 2). */
function yamlProblem(problem: YAMLError): string {
  const message = (problem.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
  const line = problem.linePos?.[0]?.line;
  const where = line === undefined ? "" : ` (line ${line + 1})`;
  const hint =
    problem.code === "BAD_DQ_ESCAPE"
      ? '; inside double quotes a backslash must be doubled ("\\\\s"), or leave the pattern unquoted'
      : "";
  return `is not valid YAML${where}: ${message}${hint}`;
}
