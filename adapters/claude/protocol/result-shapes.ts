/**
 * A rewritten tool result, in the shape that agent takes it back in. It checks a PostToolUse
 * `updatedToolOutput` against the tool's own output schema and, when it does not fit, drops it
 * and uses the tool's original output ("updatedToolOutput does not match Bash's output shape"):
 * a redaction sent in the wrong shape lets the secret through. So a built-in tool whose result is
 * an object gets an object of its shape back, and a result whose shape hookyard does not know is
 * refused, never sent to be dropped.
 *
 * The shapes are Claude Code 2.1.334's (its output schemas, and the tool_response its hooks get).
 */
import { capText } from "./text.js";

export type ResultBack = { value: unknown } | { refused: string };

interface ResultShape {
  /** The text of one of this tool's results, as a hook reads it; undefined when this result has none hookyard knows. */
  textOf(sent: Record<string, unknown>): string | undefined;
  /** Whether a value is one of this tool's results (a rewrite that kept the JSON whole). */
  fits(value: unknown): boolean;
  /** The tool's result as the agent sent it, its text replaced by the rewritten text; undefined when this result has no text field hookyard knows. */
  withText(sent: Record<string, unknown>, text: string): unknown;
}

const bash: ResultShape = {
  textOf: (sent) =>
    bash.fits(sent) ? [sent.stdout, sent.stderr].filter((part) => part !== "").join("\n") : undefined,
  fits: (value) =>
    isRecord(value) &&
    typeof value.stdout === "string" &&
    typeof value.stderr === "string" &&
    typeof value.interrupted === "boolean",
  // The text is the whole result now: stderr could hold what the rewrite took out of it.
  withText: (sent, text) => ({
    stdout: text,
    stderr: "",
    interrupted: sent.interrupted === true,
    ...(typeof sent.isImage === "boolean" ? { isImage: false } : {}),
  }),
};

const read: ResultShape = {
  textOf: (sent) =>
    read.fits(sent) ? ((sent.file as Record<string, unknown>).content as string) : undefined,
  fits: (value) =>
    isRecord(value) &&
    value.type === "text" &&
    isRecord(value.file) &&
    typeof value.file.filePath === "string" &&
    typeof value.file.content === "string" &&
    typeof value.file.numLines === "number" &&
    typeof value.file.startLine === "number" &&
    typeof value.file.totalLines === "number",
  withText: (sent, text) => {
    // Only a text file's result has its text in one field (an image, a notebook, a PDF have none).
    if (sent.type !== "text" || !isRecord(sent.file) || !read.fits(sent)) return undefined;
    const lines = text === "" ? 0 : text.split("\n").length;
    return { type: "text", file: { ...sent.file, content: text, numLines: lines } };
  },
};

const webFetch: ResultShape = {
  textOf: (sent) => (webFetch.fits(sent) ? (sent.result as string) : undefined),
  fits: (value) =>
    isRecord(value) &&
    typeof value.result === "string" &&
    typeof value.url === "string" &&
    typeof value.code === "number" &&
    typeof value.codeText === "string" &&
    typeof value.bytes === "number" &&
    typeof value.durationMs === "number",
  withText: (sent, text) =>
    webFetch.fits(sent) ? { ...sent, result: text, bytes: Buffer.byteLength(text) } : undefined,
};

/** Built-in tools whose result is an object, with a text field a rewrite can take the place of. */
const shapes: Record<string, ResultShape> = { Bash: bash, Read: read, WebFetch: webFetch };

/**
 * A tool's result as the text hooks read in ctx.result: for a built-in tool whose object result has
 * its text in known fields (Bash's stdout and stderr, a text file's Read, WebFetch), that text as
 * the model reads it, so a redactor's patterns (`^KEY=…$` per line) meet the lines themselves, not
 * JSON with its newlines escaped; any other result as it came (text) or as JSON.
 */
export function resultText(tool: string, sent: unknown): string {
  if (typeof sent === "string") return sent;
  if (sent === undefined || sent === null) return "";
  const shape = Object.hasOwn(shapes, tool) ? shapes[tool] : undefined;
  const text = shape !== undefined && isRecord(sent) ? shape.textOf(sent) : undefined;
  return text ?? JSON.stringify(sent) ?? "";
}

/** The tool's object result with its text emptied, where resultText took text out of it; else undefined. */
export function resultWithoutText(tool: string, sent: unknown): Record<string, unknown> | undefined {
  const shape = Object.hasOwn(shapes, tool) ? shapes[tool] : undefined;
  if (shape === undefined || !isRecord(sent) || shape.textOf(sent) === undefined) return undefined;
  return shape.withText(sent, "") as Record<string, unknown> | undefined;
}

/** A result taken apart by resultWithoutText, whole again with `text` (ctx.result, rewritten or not). */
export function resultWithText(tool: string, without: Record<string, unknown>, text: string): unknown {
  const shape = Object.hasOwn(shapes, tool) ? shapes[tool] : undefined;
  return shape?.withText(without, text) ?? text;
}

/**
 * `result` (the chain's rewritten result, text) as the value of updatedToolOutput for `tool`,
 * whose result the agent sent as `sent`. Text for a tool that answered text; an MCP tool's result
 * (which that agent does not check) parsed back when it is JSON. A built-in tool that answered an
 * object: the object the rewrite left, when it still has the shape the tool answered (the JSON kept
 * whole, each field its type) or the tool's schema, else the tool's result with its text replaced
 * by `result`; refused when hookyard knows no text field for that tool's result.
 */
export function resultBack(tool: string, result: string, sent: unknown): ResultBack {
  if (typeof sent === "string" || sent === undefined || sent === null) return { value: result };
  let parsed: unknown;
  let isJson = true;
  try {
    parsed = JSON.parse(result);
  } catch {
    isJson = false;
  }
  if (tool.startsWith("mcp__")) return { value: isJson ? parsed : result };
  // A rewrite that kept the JSON whole, each field of the type it had: the tool's own shape.
  if (isJson && sameShape(parsed, sent)) return { value: parsed };
  const shape = Object.hasOwn(shapes, tool) ? shapes[tool] : undefined;
  if (shape !== undefined) {
    if (isJson && shape.fits(parsed)) return { value: parsed };
    const value = isRecord(sent) ? shape.withText(sent, capText(result)) : undefined;
    if (value !== undefined) return { value };
  }
  return {
    refused: `Claude Code takes ${tool || "this tool"}'s result back only in that tool's own shape, which hookyard does not know${shape === undefined ? "" : " for this result"}`,
  };
}

/** Same type all the way down: an object with the same keys, each of its value's shape; any array for an array. */
function sameShape(value: unknown, like: unknown, depth = 0): boolean {
  if (depth > 100) return false;
  if (Array.isArray(like)) return Array.isArray(value);
  if (isRecord(like)) {
    if (!isRecord(value)) return false;
    const keys = Object.keys(like);
    if (Object.keys(value).length !== keys.length) return false;
    return keys.every((key) => Object.hasOwn(value, key) && sameShape(value[key], like[key], depth + 1));
  }
  return like === null ? value === null : typeof value === typeof like;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
