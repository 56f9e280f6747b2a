import { type AnyCtx, matchableFields, type Point } from "../../core/events.js";

/** A condition's view of the ctx: the text it tests, or undefined when the event does not carry it. */
export type FieldReader = (ctx: AnyCtx) => string | undefined;

const toolPoints: readonly Point[] = ["tool_before", "tool_after", "tool_error"];

/** The argument a tool call names `key`, as text. */
const arg =
  (...keys: string[]): FieldReader =>
  (ctx) => {
    const args = ctx.args as Record<string, unknown> | undefined;
    for (const key of keys) {
      const value = text(args?.[key]);
      if (value !== undefined) return value;
    }
    return undefined;
  };

/** A multi-edit's `edits[].<key>`, joined: a rule sees every edit of the call at once. */
const edits =
  (key: string): FieldReader =>
  (ctx) => {
    const list = (ctx.args as { edits?: unknown } | undefined)?.edits;
    if (!Array.isArray(list)) return undefined;
    const parts = list
      .map((edit) => text((edit as Record<string, unknown> | null)?.[key]))
      .filter((part) => part !== undefined);
    return parts.length > 0 ? parts.join("\n") : undefined;
  };

const either =
  (...readers: FieldReader[]): FieldReader =>
  (ctx) => {
    for (const read of readers) {
      const value = read(ctx);
      if (value !== undefined) return value;
    }
    return undefined;
  };

const writtenText = either(arg("content", "new_string", "new_source"), edits("new_string"));
const replacedText = either(arg("old_string"), edits("old_string"));

const toolFields: Record<string, FieldReader> = {
  command: arg("command"),
  file_path: arg("file_path", "path", "notebook_path"),
  new_text: writtenText,
  new_string: writtenText,
  content: writtenText,
  old_text: replacedText,
  old_string: replacedText,
};
const prompt: FieldReader = (ctx) => text(ctx.prompt);
const answer: FieldReader = (ctx) => text(ctx.answer);

/**
 * Names a rule may use beyond the ctx's own fields, by point: the tool-call fields coding agents'
 * rule files use (`command`, `file_path`, `new_text`, …), read from `args` whatever the tool calls
 * them (our `path`/`content`, the agent's `file_path`/`new_string`/`edits`), and aliases of
 * `prompt` and `answer` under the names those files use. Documented in docs/rules.md.
 */
const namedFields: Partial<Record<Point, Record<string, FieldReader>>> = {
  tool_before: toolFields,
  tool_after: toolFields,
  tool_error: toolFields,
  turn_before: { user_prompt: prompt, content: prompt },
  turn_after: {
    last_assistant_message: answer,
    content: answer,
    transcript: (ctx) =>
      Array.isArray(ctx.messages)
        ? ctx.messages
            .map((m: { role?: unknown; content?: unknown }) => `${text(m?.role)}: ${text(m?.content) ?? ""}`)
            .join("\n")
        : undefined,
  },
};

/**
 * How a rule reads `field` at `point`, or undefined when the point has no such field. A field is a
 * name from the table above or a path into the ctx (`args.url`, `prompt`, `response.content`) whose
 * first step is one of the point's ctx fields.
 */
export function fieldReader(field: string, point: Point): FieldReader | undefined {
  const named = namedFields[point]?.[field];
  if (named) return named;
  const path = field.split(".");
  if (!matchableFields(point).includes(path[0] as string) || path.some((step) => step === ""))
    return undefined;
  return (ctx) => {
    let value: unknown = ctx;
    for (const step of path) {
      if (value === null || typeof value !== "object" || !Object.hasOwn(value, step)) return undefined;
      value = (value as Record<string, unknown>)[step];
    }
    return text(value);
  };
}

/** Every field a rule may name at `point`, for messages that say what would work. */
export function fieldsAt(point: Point): string[] {
  return [...new Set([...matchableFields(point), ...Object.keys(namedFields[point] ?? {})])];
}

export function isToolPoint(point: Point): boolean {
  return toolPoints.includes(point);
}

/** Strings as they are; numbers and booleans as written; objects and arrays as JSON. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
