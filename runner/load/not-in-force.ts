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
