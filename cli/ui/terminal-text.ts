import { table } from "./table.js";

/**
 * Characters a publisher could use to take over a terminal line: C0 and C1 controls (escape
 * sequences move the cursor, recolour, hide lines), line and paragraph separators, and the
 * bidirectional marks and overrides that reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
const unsafe = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Text that came from a registry (descriptions, reasons, advisories) as one safe terminal line:
 * unsafe characters become spaces, runs of white space collapse, a longer text is cut with "…".
 */
export function terminalLine(text: string, max = Number.POSITIVE_INFINITY): string {
  const line = text.replace(unsafe, " ").replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  return `${line.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** A table (ui/table.ts) whose cells hold registry text: each cell made one safe line first. */
export function safeTable(rows: readonly string[][], indent = ""): string {
  return table(
    rows.map((row) => row.map((cell) => terminalLine(cell))),
    indent,
  );
}
