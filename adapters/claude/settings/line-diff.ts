import { structuredPatch } from "diff";

/** Lines of context around each change, as `diff -u` shows them. */
const context = 3;
/** Past this many changed lines the texts are not matched line by line: the whole file is shown as replaced. */
const maxEditLength = 1_000;

/**
 * A unified diff of two texts (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks), or "" when they are
 * equal. jsdiff (`diff`) finds the changes and groups them into hunks; this only writes them the
 * way `diff -u` does: CRLF read as LF, no "\ No newline at end of file" marker, a count of one
 * left out, file names as they are.
 */
export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }): string {
  if (before === after) return "";
  const a = normalise(before);
  const b = normalise(after);
  const patch = structuredPatch(labels.from, labels.to, a, b, undefined, undefined, {
    context,
    maxEditLength,
  });
  const hunks = patch ? patch.hunks : [replaceAll(a, b)];
  const lines = [`--- ${labels.from}`, `+++ ${labels.to}`];
  for (const hunk of hunks) {
    lines.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    lines.push(...hunk.lines);
  }
  return `${lines.join("\n")}\n`;
}

/** LF line ends, and a last line ended like the others, so that neither shows as a change. */
function normalise(text: string): string {
  const lf = text.replace(/\r\n/g, "\n");
  return lf === "" || lf.endsWith("\n") ? lf : `${lf}\n`;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** One hunk: every line of `a` removed, every line of `b` added. */
function replaceAll(a: string, b: string): Hunk {
  const from = lines(a);
  const to = lines(b);
  return {
    oldStart: 1,
    oldLines: from.length,
    newStart: 1,
    newLines: to.length,
    lines: [...from.map((line) => `-${line}`), ...to.map((line) => `+${line}`)],
  };
}

function lines(text: string): string[] {
  return text === "" ? [] : text.slice(0, -1).split("\n");
}

/** `start,count` with 1-based lines, `start` alone for one line; an empty side is `start,0` at the line before it. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}
