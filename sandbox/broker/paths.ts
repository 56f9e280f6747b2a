import { realpathSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";
import { type Grant, pathUnder } from "../capabilities.js";
import type { Check } from "./check.js";
import { fsFailure } from "./errors.js";

export type FsKind = "fs.read" | "fs.write";
type FsGrant = Extract<Grant, { kind: FsKind }>;

/** A grant with its path made absolute (lexically: the grant's own words, not where links lead). */
export interface FsGrantRoot {
  grant: FsGrant;
  absolute: string;
}

/** An area a grant must name literally to reach: a grant of `/` or `.` does not cover it. */
interface GuardedArea {
  path: string;
  /** How messages name it: never a host path the hook did not write. */
  label: string;
}

/**
 * For both kinds the kernel's views (/proc/self/root, /proc/self/environ, devices). For writes
 * also hookyard's own files (writing them would change the grants) and .git (its hooks and
 * config run code outside the sandbox), by name and by where they really are.
 */
function guardedAreas(rootReal: string): Record<FsKind, GuardedArea[]> {
  const system = ["/proc", "/sys", "/dev"].map((path) => ({ path, label: path }));
  const workspace = [".hookyard", "hookyard.json", "hookyard.lock", ".git"].flatMap((label) => {
    const lexical = join(rootReal, label);
    const real = realpathOr(lexical);
    return real === lexical
      ? [{ path: lexical, label }]
      : [
          { path: lexical, label },
          { path: real, label },
        ];
  });
  return { "fs.read": system, "fs.write": [...system, ...workspace] };
}

export interface FsScope {
  rootReal: string;
  roots: Record<FsKind, FsGrantRoot[]>;
  guarded: Record<FsKind, GuardedArea[]>;
}

export function fsScope(rootReal: string, grants: readonly Grant[]): FsScope {
  const rootsOf = (kind: FsKind) =>
    grants
      .filter((grant): grant is FsGrant => grant.kind === kind)
      .map((grant) => ({
        grant,
        absolute: isAbsolute(grant.path) ? grant.path : join(rootReal, grant.path),
      }));
  return {
    rootReal,
    roots: { "fs.read": rootsOf("fs.read"), "fs.write": rootsOf("fs.write") },
    guarded: guardedAreas(rootReal),
  };
}

export interface Authorised {
  /** The path as the hook wrote it (normalised): the only path messages show. */
  shown: string;
  /** Where it really is, symlinks resolved: what is opened must prove to be this. */
  real: string;
}

/**
 * The pre-open check: the path must be under a grant in the hook's own words (relative with
 * relative, absolute with absolute), and its real path under that grant's real path and outside
 * the guarded areas the grant does not name. Records the decision.
 */
export async function authorise(
  scope: FsScope,
  kind: FsKind,
  requested: string,
  check: Check,
  action: string,
): Promise<Authorised> {
  const absolute = isAbsolute(requested);
  const target = absolute ? requested : join(scope.rootReal, requested);
  const candidates = scope.roots[kind].filter(
    (root) => isAbsolute(root.grant.path) === absolute && pathUnder(requested, root.grant.path),
  );
  const needs = `${kind}:${requested}`;
  if (candidates.length === 0) throw check.deny(requested, needs);
  // Named in the request itself: denied before the file system is touched (no existence oracle).
  const named = scope.guarded[kind].find(
    (area) =>
      pathUnder(target, area.path) && candidates.every((root) => !pathUnder(root.absolute, area.path)),
  );
  if (named) {
    throw check.deny(
      requested,
      needs,
      `${named.label} is reachable only through a grant that names a path in it`,
    );
  }

  let real: string;
  try {
    // A file about to be written may not exist yet: resolve as much of its path as exists.
    real = kind === "fs.write" ? await realpathLenient(target) : await realpath(target);
  } catch (error) {
    throw fsFailure(error, action, requested);
  }

  let guard: GuardedArea | undefined;
  for (const root of candidates) {
    // A granted path that cannot be resolved (a file on the way, no permission) grants nothing.
    const grantReal = await realpathLenient(root.absolute).catch(() => undefined);
    if (grantReal === undefined || !pathUnder(real, grantReal)) continue;
    guard = scope.guarded[kind].find(
      (area) =>
        (pathUnder(real, area.path) || pathUnder(target, area.path)) && !pathUnder(root.absolute, area.path),
    );
    if (guard) continue;
    check.allow(requested, root.grant);
    return { shown: requested, real };
  }
  if (!guard) {
    throw check.deny(
      requested,
      needs,
      `${requested} leads outside the granted paths through a symbolic link`,
    );
  }
  throw check.refuse(
    requested,
    "BROKER_ERR_REFUSED",
    `${requested} leads into ${guard.label} through a symbolic link; that is refused whatever the grants`,
  );
}

/** realpath of the longest existing prefix, with the rest appended: where `path` would be created. */
export async function realpathLenient(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || path === dirname(path)) throw error;
    return join(await realpathLenient(dirname(path)), basename(path));
  }
}

/** realpathLenient, at start-up; a path that cannot be resolved at all is taken as written. */
export function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || path === dirname(path)) return path;
    return join(realpathOr(dirname(path)), basename(path));
  }
}
