import { registerScriptProtocols } from "./adapters/script-protocols.js";

export { type LoadProblem, RunnerError, type RunnerErrorCode } from "./core/errors.js";
export {
  type AnyCtx,
  type CtxOf,
  type Effect,
  type Message,
  type ModelResponse,
  type Point,
  points,
  type ToolSpec,
} from "./core/events.js";
export {
  type Decision,
  defineHook,
  type Handler,
  type HookApi,
  type HookDefinition,
  type Matcher,
} from "./core/hook.js";
export {
  type AgentEvent,
  type AgentOptions,
  type AgentResult,
  type AgentStats,
  type AskPolicy,
  runAgent,
} from "./runner/agent/loop.js";
export type { Model, ModelRequest, ModelResult } from "./runner/agent/model.js";
export { OpenAIModel, type OpenAIModelOptions } from "./runner/agent/models/openai.js";
export { type Script, ScriptedModel } from "./runner/agent/models/scripted.js";
export { defaultTools, type Tool, ToolFailure } from "./runner/agent/tools.js";
export type { Attributed, ChainOutcome, DispatchWarning, HookRun } from "./runner/chain/outcome.js";
export { type Hooks, type ListedHook, type LoadHooksOptions, loadHooks } from "./runner/load/load-hooks.js";
export type { Logger } from "./runner/logger.js";
export { listRuns, type RunRecord, readRun } from "./runner/runs/read-record.js";
export { type RunHeader, runsFolder, type Step } from "./runner/runs/record.js";
export type { StateWrite } from "./runner/state.js";

// The library loads hookyard.json as the CLI does: a command hook's `profile` names a coding
// agent's script protocol, registered here before any hooks are loaded.
registerScriptProtocols();
