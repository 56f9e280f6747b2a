import type { HookAnswer } from "./types.js";

/** A batch stops after a failure, a block, or a changed ctx: the caller must apply it before the next hook runs. */
export function stopsBatch(answer: HookAnswer): boolean {
  if (answer.status === "error" || answer.ctx !== undefined) return true;
  const decision = answer.decision;
  return typeof decision === "object" && decision !== null && Object.hasOwn(decision, "block");
}
