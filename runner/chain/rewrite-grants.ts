import type { AnyCtx, Point } from "../../core/events.js";
import { type FieldRef, formatGrant, type RewriteGrant } from "../../sandbox/capabilities.js";

/**
 * What a sandboxed hook's rewrite grants let through, decided on the host from the ctx before the
 * hook ran and the fields it returned (never from anything the isolate says about itself).
 *
 * `rewrite:<point>.<field>` lets a change anywhere at or below the field; `redact:<point>.<field>`
 * lets only a redaction there: each string may only have spans replaced with markers, every other
 * value stays as it was. A change outside the grants is undone where it was made, so the rest of
 * the rewrite applies: a hook granted `rewrite:tool_before.args.timeout` that also changes
 * `args.command` gets its timeout and keeps the command the model asked for.
 */

/**
 * A redaction marker: `[redacted]` or `[redacted:<kind>]` (`redacted` in any case), `<kind>` 1-32
 * letters, digits, `_`, `.` or `-`. No spaces, and always saying "redacted": markers cannot be
 * strung into sentences that the model would read as instructions.
 */
export const markerDescription = "[redacted] or [redacted:<kind>] (kind: 1-32 of A-Z a-z 0-9 _ . -)";

const markerWord = "redacted";
const maxKindLength = 32;

/** Where the marker starting at `text[at]` (a `[`) ends (the index after `]`), or -1 if none starts there. */
export function markerEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x5b /* [ */) return -1;
  const word = text.slice(at + 1, at + 1 + markerWord.length);
  if (word.toLowerCase() !== markerWord) return -1;
  let i = at + 1 + markerWord.length;
  if (text.charCodeAt(i) === 0x5d /* ] */) return i + 1;
  if (text.charCodeAt(i) !== 0x3a /* : */) return -1;
  const kindStart = ++i;
  while (i < text.length && i - kindStart <= maxKindLength && isKindChar(text.charCodeAt(i))) i++;
  const length = i - kindStart;
  if (length < 1 || length > maxKindLength || text.charCodeAt(i) !== 0x5d) return -1;
  return i + 1;
}

function isKindChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || // 0-9
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x61 && c <= 0x7a) || // a-z
    c === 0x5f || // _
    c === 0x2e || // .
    c === 0x2d // -
  );
}

/**
 * Whether `after` is `before` with some spans (each at least one character) replaced by markers.
 * Linear, and no regular expression ever runs over either text: `after` is split on its markers
 * into literal pieces, and `before` must start with the first piece, end with the last, and hold
 * the middle ones in order with at least one character between each two. Taking each middle piece
 * at its leftmost place is right for this shape (a marker stands for any non-empty span): it
 * leaves the most room for the pieces after it.
 */
export function isRedaction(before: string, after: string): boolean {
  if (before === after) return true;
  const pieces: string[] = [];
  let start = 0;
  for (let at = after.indexOf("["); at >= 0; ) {
    const end = markerEnd(after, at);
    if (end < 0) {
      at = after.indexOf("[", at + 1);
      continue;
    }
    pieces.push(after.slice(start, at));
    start = end;
    at = after.indexOf("[", end);
  }
  if (pieces.length === 0) return false; // no marker, and not equal
  pieces.push(after.slice(start));
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (!before.startsWith(first)) return false;
  // Each marker replaces at least one character.
  let cursor = first.length + 1;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] as string;
    const found = before.indexOf(piece, cursor);
    if (found < 0) return false;
    cursor = found + piece.length + 1;
  }
  return before.length - last.length >= cursor && before.endsWith(last);
}

export interface ScopedRewrite {
  /** The fields to write: each the hook's new value with every change it was not granted undone. */
  fields: Record<string, unknown>;
  /** One sentence per kind of refusal, naming the fields: what dispatch warns with. */
  refusals: string[];
}

/** Field names shown in a refusal at most; the rest are counted. */
const maxNamed = 5;

/**
 * Keeps the changes `grants` allow of a rewrite returned at `point` (`fields`: rewritable top-level
 * fields, already checked as such) against `ctx`, the ctx the hook was given.
 */
export function scopeRewrite(
  point: Point,
  ctx: AnyCtx,
  fields: Record<string, unknown>,
  grants: readonly RewriteGrant[],
): ScopedRewrite {
  if (grants.some((grant) => grant.kind === "rewrite" && grant.field === undefined)) {
    return { fields, refusals: [] };
  }
  const here = grants.filter((grant) => grant.field?.point === point) as Array<
    RewriteGrant & { field: FieldRef }
  >;
  const walk = new Walk(point, here);
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    const result = walk.value([field], field, ctx[field], value);
    if (result.changed) setField(out, field, result.value);
  }
  const refusals: string[] = [];
  const granted =
    grants.length === 0
      ? undefined
      : here.length === 0
        ? `granted: ${grants.map(formatGrant).join(", ")}, none at ${point}`
        : `granted: ${here.map(formatGrant).join(", ")}`;
  if (walk.notGranted.length > 0) {
    const names = named(walk.notGranted);
    refusals.push(
      granted
        ? `returned a rewrite of ${names}, which is not granted (${granted}); dropped`
        : `returned a rewrite of ${names}, but it has no "rewrite" grant (it would need ${walk.onlyRedactions ? "redact" : "rewrite"}:${grantPath(walk.notGranted[0] as string)}); dropped`,
    );
  }
  if (walk.notRedaction.length > 0) {
    refusals.push(
      `returned a rewrite of ${named(walk.notRedaction)} that is not a redaction (${granted}: there it may only replace text with ${markerDescription}); dropped`,
    );
  }
  return { fields: out, refusals };
}

/** A shown path as a grant names it: array indices dropped (`response.toolCalls[0].args` → `response.toolCalls.args`). */
function grantPath(shown: string): string {
  return shown.replace(/\[[0-9]+\]/g, "");
}

function named(paths: string[]): string {
  const shown = [...new Set(paths)];
  const more = shown.length - maxNamed;
  const rest = paths.length >= maxCollected ? " and more" : more > 0 ? ` and ${more} more` : "";
  return shown.slice(0, maxNamed).join(", ") + rest;
}

type Walked = { value: unknown; changed: boolean };

/** One pass over a returned field and the field as it was; every node is looked at once. */
class Walk {
  readonly notGranted: string[] = [];
  /** Whether every change not granted only replaced text with markers (then redact: would do). */
  onlyRedactions = true;
  readonly notRedaction: string[] = [];

  constructor(
    private readonly point: Point,
    private readonly grants: ReadonlyArray<RewriteGrant & { field: FieldRef }>,
  ) {}

  /**
   * `path`: the field names from the top (an array's elements share its path: a grant below an
   * array holds that field of every element); `shown`: the same with indices, for messages.
   */
  value(path: readonly string[], shown: string, before: unknown, after: unknown): Walked {
    if (this.covered(path, "rewrite")) return { value: after, changed: !jsonEqual(before, after) };
    const redact = this.covered(path, "redact");
    if (!redact && !this.below(path)) return this.refuse(shown, before, after, false);
    if (typeof before === "string" && typeof after === "string") {
      if (before === after) return { value: before, changed: false };
      if (redact && isRedaction(before, after)) return { value: after, changed: true };
      return this.refuse(shown, before, after, redact);
    }
    if (isRecord(before) && isRecord(after)) return this.record(path, shown, before, after, redact);
    if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
      let changed = false;
      const out = before.map((item, i) => {
        const result = this.value(path, `${shown}[${i}]`, item, after[i]);
        changed ||= result.changed;
        return result.value;
      });
      return changed ? { value: out, changed } : { value: before, changed: false };
    }
    return this.refuse(shown, before, after, redact);
  }

  private record(
    path: readonly string[],
    shown: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
    redact: boolean,
  ): Walked {
    const out: Record<string, unknown> = {};
    let changed = false;
    for (const key of Object.keys(before)) {
      const at = [...path, key];
      if (Object.hasOwn(after, key)) {
        const result = this.value(at, `${shown}.${key}`, before[key], after[key]);
        setField(out, key, result.value);
        changed ||= result.changed;
      } else if (this.covered(at, "rewrite")) {
        changed = true; // removed, as granted
      } else {
        this.refuse(`${shown}.${key}`, before[key], undefined, redact);
        setField(out, key, before[key]);
      }
    }
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) continue;
      if (this.covered([...path, key], "rewrite")) {
        setField(out, key, after[key]);
        changed = true;
      } else this.refuse(`${shown}.${key}`, undefined, after[key], redact);
    }
    return changed ? { value: out, changed } : { value: before, changed: false };
  }

  /** Keeps `before`; each field where it really changed is recorded as refused. */
  private refuse(shown: string, before: unknown, after: unknown, redact: boolean): Walked {
    const out = redact ? this.notRedaction : this.notGranted;
    changedPaths(`${this.point}.${shown}`, before, after, out, (leafBefore, leafAfter) => {
      if (
        typeof leafBefore !== "string" ||
        typeof leafAfter !== "string" ||
        !isRedaction(leafBefore, leafAfter)
      ) {
        this.onlyRedactions = false;
      }
    });
    return { value: before, changed: false };
  }

  /** Whether a grant of `kind` names `path` or a field above it. */
  private covered(path: readonly string[], kind: RewriteGrant["kind"]): boolean {
    return this.grants.some(
      (grant) =>
        grant.kind === kind &&
        grant.field.path.length <= path.length &&
        grant.field.path.every((name, i) => path[i] === name),
    );
  }

  /** Whether some grant names a field below `path`. */
  private below(path: readonly string[]): boolean {
    return this.grants.some(
      (grant) =>
        grant.field.path.length > path.length && path.every((name, i) => grant.field.path[i] === name),
    );
  }
}

/** Names collected per refusal at most: enough to show maxNamed and say there are more. */
const maxCollected = 64;

/** The deepest fields where `after` differs from `before`, so a warning names `args.command`, not `args`. */
function changedPaths(
  shown: string,
  before: unknown,
  after: unknown,
  out: string[],
  leaf: (before: unknown, after: unknown) => void,
): void {
  if (out.length >= maxCollected || jsonEqual(before, after)) return;
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      changedPaths(`${shown}.${key}`, before[key], after[key], out, leaf);
    }
  } else if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    for (const [i, item] of before.entries()) changedPaths(`${shown}[${i}]`, item, after[i], out, leaf);
  } else {
    out.push(shown);
    leaf(before, after);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Equality of JSON data (what a sandboxed hook returns, and what a ctx holds). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
    );
  }
  return false;
}

/** Defines rather than assigns, so a key named __proto__ stays a key and never sets a prototype. */
function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  Object.defineProperty(target, field, { value, enumerable: true, writable: true, configurable: true });
}
