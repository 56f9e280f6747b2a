/** Lines of context around each change, as `diff -u` shows them. */
const context = 3;
/** Past this many line pairs (16 MB of table), the whole file is shown as replaced, not matched line by line. */
const pairCap = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

/**
 * A unified diff of two texts (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks), or "" when they are
 * equal. Settings files are small: a plain longest-common-subsequence table is enough.
 */
export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = a.length * b.length > pairCap ? replaceAll(a, b) : lcsOps(a, b);
  const lines = [`--- ${labels.from}`, `+++ ${labels.to}`];
  for (const hunk of hunks(ops)) lines.push(...hunk);
  return `${lines.join("\n")}\n`;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function lcsOps(a: string[], b: string[]): Op[] {
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lengths[i] as Uint32Array;
    const below = lengths[i + 1] as Uint32Array;
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] =
        a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i] as string, a: i++, b: j++ });
    } else if (i < a.length && (j === b.length || (lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0))) {
      ops.push({ kind: "-", line: a[i] as string, a: i++, b: j });
    } else {
      ops.push({ kind: "+", line: b[j] as string, a: i, b: j++ });
    }
  }
  return ops;
}

function replaceAll(a: string[], b: string[]): Op[] {
  return [
    ...a.map((line, i): Op => ({ kind: "-", line, a: i, b: 0 })),
    ...b.map((line, j): Op => ({ kind: "+", line, a: a.length, b: j })),
  ];
}

/** Changes grouped with their context; changes closer than twice the context share a hunk. */
function hunks(ops: Op[]): string[][] {
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  const result: string[][] = [];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, (changed[k] as number) - context);
    let end = (changed[k] as number) + context;
    while (k + 1 < changed.length && (changed[k + 1] as number) - context <= end + 1) {
      k++;
      end = (changed[k] as number) + context;
    }
    k++;
    const slice = ops.slice(start, Math.min(ops.length, end + 1));
    const first = slice[0] as Op;
    const fromCount = slice.filter((op) => op.kind !== "+").length;
    const toCount = slice.filter((op) => op.kind !== "-").length;
    const header = `@@ -${range(first.a, fromCount)} +${range(first.b, toCount)} @@`;
    result.push([header, ...slice.map((op) => `${op.kind}${op.line}`)]);
  }
  return result;
}

/** `start,count` with 1-based lines, `start` alone for one line; an empty side is `start,0` at the line before it. */
function range(index: number, count: number): string {
  if (count === 0) return `${index},0`;
  return count === 1 ? `${index + 1}` : `${index + 1},${count}`;
}
