/** What the sandbox process's runtime is handed: how it reaches state, and where its answers go. */
import type { HookAnswer } from "../wire/types.js";

/**
 * How a runtime hands back each answer as soon as it has it, with the lines the hook logged during
 * the call; `last` is true for the batch's final answer.
 */
export type AnswerSink = (answer: HookAnswer, logs: readonly string[], last: boolean) => void;

/** What the runtime needs from whoever holds the ParentServices (this process or the parent). */
export interface RuntimeServices {
  stateGet(hook: string, key: string): Promise<unknown>;
  stateSet(hook: string, key: string, value: unknown): Promise<void>;
}
