import type { LoadProblem } from "../../core/errors.js";

// The words for a hook that is not in force, shared by the stand-in, `list`, `status` and the
// session line; no zod here, so the commands that print them load none to say so.

/**
 * Why a hook that did not load has no stand-in: hookyard.json opted it out, or it never blocked
 * anything (a background hook, a warn rule). The same words in `list`, `status` and the session line.
 */
export function leftOutWhy(problem: LoadProblem): string {
  return problem.onError === "open" ? 'onError "open" in hookyard.json' : "it never blocks anything";
}

/**
 * "could not be loaded (<the fix>): <what is wrong>", the same in `list`, the block reason and
 * `status`. The fix comes first: the message (hashes, paths) can be long, and a transcript cuts it.
 */
export function brokenReason(problem: LoadProblem): string {
  return `could not be loaded${problem.fix ? ` (${problem.fix})` : ""}: ${problem.message}`;
}

/**
 * The hooks of a fresh clone (in hookyard.lock, not yet in the store), as one line instead of one
 * long error each: they share one cause and one fix. `blocksAt`: where their stand-ins block.
 */
export function notInstalledLine(
  problems: readonly LoadProblem[],
  blocksAt: readonly string[],
  skipped: readonly LoadProblem[] = [],
): string {
  const names = problems.map((problem) => problem.name).join(", ");
  const count = problems.length === 1 ? "1 hook" : `${problems.length} hooks`;
  const until =
    blocksAt.length > 0
      ? `; until then ${problems.length === 1 ? "it blocks" : "they block"} at ${blocksAt.join(", ")}`
      : "";
  const left = skipped.map((problem) => `"${problem.name}" (${leftOutWhy(problem)})`).join(", ");
  const skips = left ? `; skipped until then: ${left}` : "";
  return `${count} in hookyard.lock ${problems.length === 1 ? "is" : "are"} not in the store (${names}): run \`hookyard install\`${until}${skips}`;
}
