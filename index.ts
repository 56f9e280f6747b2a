export type { Attributed, ChainOutcome, DispatchWarning, HookRun } from "./runner/dispatch.js";
export { RunnerError, type RunnerErrorCode } from "./runner/errors.js";
export {
  type AnyCtx,
  type CtxOf,
  type Effect,
  type Message,
  type ModelResponse,
  type Point,
  points,
  type ToolSpec,
} from "./runner/events.js";
export {
  type Decision,
  defineHook,
  type Handler,
  type HookApi,
  type HookDefinition,
  type Matcher,
} from "./runner/hook.js";
export { type Hooks, type ListedHook, type LoadHooksOptions, loadHooks } from "./runner/load-hooks.js";
export type { Logger } from "./runner/logger.js";
