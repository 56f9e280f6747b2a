import { isDeepStrictEqual } from "node:util";
import { groupFor, type HookEntry, isHookyardEntry } from "./hookyard-entries.js";
import { isObject } from "./settings-file.js";

type Group = { hooks: unknown[] } & Record<string, unknown>;
type HooksField = Record<string, Group[]>;

/** How an agent's entries are grouped and found again (adapters/agent-settings.ts); Claude Code's by default. */
export interface EntryShape {
  groupFor(event: string, hook: HookEntry): Record<string, unknown>;
  isHookyardEntry(hook: unknown): boolean;
}

const claudeShape: EntryShape = { groupFor, isHookyardEntry };

export interface MergeReport {
  added: string[];
  replaced: string[];
  unchanged: string[];
}

/**
 * The settings with one hookyard entry per event: appended (in a group of its own) where there is
 * none, replaced in place where one differs (another path, --http), left alone where it is the
 * same. The user's own hooks and groups keep their content and order. `data` is not changed.
 */
export function withHookyard(
  data: Record<string, unknown>,
  entries: ReadonlyArray<{ event: string; hook: HookEntry }>,
  shape: EntryShape = claudeShape,
): { data: Record<string, unknown>; report: MergeReport } {
  const next = structuredClone(data);
  const hooks = (isObject(next.hooks) ? next.hooks : {}) as HooksField;
  const report: MergeReport = { added: [], replaced: [], unchanged: [] };
  for (const { event, hook } of entries) {
    const groups = Object.hasOwn(hooks, event) ? (hooks[event] as Group[]) : [];
    const ours = groups.flatMap((group) =>
      group.hooks.filter((entry) => shape.isHookyardEntry(entry)).map((entry) => ({ group, entry })),
    );
    const [first, ...extra] = ours;
    if (first === undefined) {
      groups.push(shape.groupFor(event, hook) as Group);
      report.added.push(event);
    } else {
      const same = extra.length === 0 && isDeepStrictEqual(first.entry, hook);
      first.group.hooks[first.group.hooks.indexOf(first.entry)] = hook;
      // Copies (a settings file merged by hand) would run hookyard twice per event.
      for (const { group, entry } of extra) group.hooks.splice(group.hooks.indexOf(entry), 1);
      (same ? report.unchanged : report.replaced).push(event);
    }
    hooks[event] = groups.filter((group) => group.hooks.length > 0 || !extra.some((e) => e.group === group));
  }
  next.hooks = hooks;
  return { data: next, report };
}

/**
 * The settings without any hookyard entry, and without the groups, event lists and `hooks` field
 * that only those entries kept from being empty. Everything else stays as it is.
 */
export function withoutHookyard(
  data: Record<string, unknown>,
  shape: EntryShape = claudeShape,
): {
  data: Record<string, unknown>;
  removed: string[];
} {
  if (!isObject(data.hooks)) return { data, removed: [] };
  const next = structuredClone(data);
  const hooks = next.hooks as HooksField;
  const removed: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    let changed = false;
    const kept = groups.filter((group) => {
      const before = group.hooks.length;
      group.hooks = group.hooks.filter((hook) => !shape.isHookyardEntry(hook));
      if (group.hooks.length === before) return true;
      changed = true;
      return group.hooks.length > 0;
    });
    if (!changed) continue;
    removed.push(event);
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (removed.length > 0 && Object.keys(hooks).length === 0) delete next.hooks;
  return { data: next, removed };
}
