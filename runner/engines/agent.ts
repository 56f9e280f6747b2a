import * as z from "zod";
import { errorText, RunnerError } from "../../core/errors.js";
import type { AnyCtx, Point } from "../../core/events.js";
import type { Decision } from "../../core/hook.js";
import type { AgentEvent } from "../agent/loop.js";
import { chooseModel } from "../agent/model-choice.js";
import { currentTranscript } from "../agent/transcript-scope.js";
import { Dispatcher } from "../chain/dispatch.js";
import type { CompiledHook } from "../compiled-hook.js";
import { defaultReviewerTools, reviewerTools } from "./reviewer-tools.js";
import { type CompileContext, compiledSettings, configuredHookBaseSchema } from "./settings.js";
import { agentVerdictFormat, agentVerdictSchema, parseVerdict, refusalAt } from "./verdicts.js";

/** Settings shared by the engines that ask a model (`agent`, `judge`). */
export const modelFields = {
  model: z.string().min(1),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable's name")
    .optional(),
};

/** A sub-agent that reviews the call with read-only tools and answers allow, block or ask. */
export const agentHookSchema = configuredHookBaseSchema
  .extend({
    engine: z.literal("agent"),
    ...modelFields,
    instructions: z.string().min(1),
    tools: z.array(z.string()).optional(),
    maxSteps: z.number().int().min(1).max(100).optional(),
  })
  .strict();
export type AgentHookConfig = z.infer<typeof agentHookSchema>;

const defaultMaxSteps = 8;
const defaultTimeoutMs = 60_000;

const reviewerPrompt = (instructions: string) =>
  [
    "You review one step of a coding agent before hookyard lets it happen. You may look at the",
    "workspace with your tools; you cannot change anything.",
    "",
    instructions,
    "",
    `When you have decided, answer with ${agentVerdictFormat}.`,
  ].join("\n");

export function agentHook(config: AgentHookConfig, context: CompileContext): CompiledHook {
  const model = chooseModel(config, context.root, process.env);
  const tools = reviewerTools(config.tools ?? defaultReviewerTools, context.root, config.name);
  const maxSteps = config.maxSteps ?? defaultMaxSteps;
  const hook: CompiledHook = {
    ...compiledSettings(config, context, defaultTimeoutMs),
    engine: "agent",
    trust: "trusted",
    source: `hookyard.json (${config.model})`,
    selfTimed: true,
    run: async (point, ctx) => {
      const depth = typeof ctx.depth === "number" ? ctx.depth : 0;
      const transcript = currentTranscript();
      // A reviewer's own calls would be reviewed again, without end: agent hooks run at depth 0 only.
      if (depth > 0) {
        const line = `agent hook "${hook.name}" skipped at ${point}: depth ${depth} (agent hooks run only at depth 0)`;
        context.logger?.debug?.(line);
        transcript?.({ type: "note", text: line });
        return undefined;
      }
      const signal = AbortSignal.timeout(hook.timeoutMs);
      // Loaded by the first review, not with the engines: most workspaces have no agent hook, and
      // every exec that runs the chain itself would load the loop, its tools and its schemas.
      const { runAgent } = await import("../agent/loop.js");
      const result = await runAgent({
        hooks: { dispatch: context.chain?.dispatch ?? ((p, c) => withoutHooks.dispatch(p, c)) },
        model: model.forCall(signal),
        systemPrompt: reviewerPrompt(withArguments(config.instructions, point, ctx)),
        prompt: reviewRequest(point, ctx),
        cwd: context.root,
        tools,
        maxSteps,
        maxContinues: 0,
        depth: depth + 1,
        onEvent: (event: AgentEvent) =>
          transcript?.({ type: "nested", hook: hook.name, depth: depth + 1, event }),
      });
      const where = { hook: hook.name, point };
      if (signal.aborted) {
        throw new RunnerError(
          "RUN_ERR_HOOK_TIMEOUT",
          `the reviewer gave no verdict within ${hook.timeoutMs} ms (timeoutMs)`,
          where,
        );
      }
      if (result.reason === "model_error") {
        throw new RunnerError(
          "RUN_ERR_MODEL_FAILED",
          `the reviewer's model failed: ${errorText(result.error)}`,
          {
            ...where,
            cause: result.error,
          },
        );
      }
      if (result.reason === "max_steps") {
        throw new RunnerError(
          "RUN_ERR_AGENT_NO_VERDICT",
          `the reviewer gave no verdict within ${maxSteps} model calls (maxSteps)`,
          where,
        );
      }
      if (result.reason === "prompt_blocked") {
        throw new RunnerError(
          "RUN_ERR_AGENT_NO_VERDICT",
          "a turn_before hook blocked the reviewer's prompt",
          where,
        );
      }
      return decisionOf(point, parseVerdict(result.answer, agentVerdictSchema, where));
    },
  };
  return hook;
}

function decisionOf(point: Point, verdict: z.infer<typeof agentVerdictSchema>): Decision | undefined {
  if (verdict.verdict === "block") return refusalAt(point, verdict.reason);
  if (verdict.verdict === "ask") return { ask: verdict.reason };
  return undefined;
}

/** What the reviewer is asked: the point and its ctx, without the ids it has no use for. */
function reviewRequest(point: Point, ctx: AnyCtx): string {
  const subject = point.startsWith("tool_") ? `the tool call "${String(ctx.tool)}"` : `the ${point} step`;
  return `Review ${subject} at the ${point} point:\n\n${JSON.stringify(stepOf(ctx), null, 2)}`;
}

/** Instructions written for a coding agent's agent hook may name the step as `$ARGUMENTS`. */
function withArguments(instructions: string, point: Point, ctx: AnyCtx): string {
  if (!instructions.includes("$ARGUMENTS")) return instructions;
  return instructions.split("$ARGUMENTS").join(JSON.stringify({ point, ...stepOf(ctx) }));
}

function stepOf(ctx: AnyCtx): Record<string, unknown> {
  const { sessionId: _session, depth: _depth, ...rest } = ctx;
  return rest;
}

/** The chain a sub-agent fires into when the hook was compiled outside a workspace's hooks (a test, a library caller). */
const withoutHooks = new Dispatcher([], {
  logger: { info() {}, warn() {}, error() {} },
  apiFor: () => {
    throw new Error("a chain without hooks needs no api");
  },
});
