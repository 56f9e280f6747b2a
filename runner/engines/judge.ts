import * as z from "zod";
import { errorText, RunnerError } from "../../core/errors.js";
import type { AnyCtx, Point } from "../../core/events.js";
import { chooseModel } from "../agent/model-choice.js";
import type { CompiledHook } from "../compiled-hook.js";
import { modelFields } from "./agent.js";
import { type CompileContext, compiledSettings, configuredHookBaseSchema } from "./settings.js";
import { judgeVerdictFormat, judgeVerdictSchema, parseVerdict, refusalAt } from "./verdicts.js";

/** One model call judges the step: the coding agents' `prompt` hook, answering `{ ok, reason }`. */
export const judgeHookSchema = configuredHookBaseSchema
  .extend({
    engine: z.literal("judge"),
    ...modelFields,
    /** `$ARGUMENTS` is replaced by the step as JSON; without it, the JSON is added at the end. */
    prompt: z.string().min(1),
  })
  .strict();
export type JudgeHookConfig = z.infer<typeof judgeHookSchema>;

const defaultTimeoutMs = 30_000;

const judgeSystemPrompt = `You judge one step of a coding agent before hookyard lets it happen. Answer with ${judgeVerdictFormat}.`;

export function judgeHook(config: JudgeHookConfig, context: CompileContext): CompiledHook {
  const model = chooseModel(config, context.root, process.env);
  const hook: CompiledHook = {
    ...compiledSettings(config, context, defaultTimeoutMs),
    engine: "judge",
    trust: "trusted",
    source: `hookyard.json (${config.model})`,
    selfTimed: true,
    run: async (point, ctx) => {
      const where = { hook: hook.name, point };
      const signal = AbortSignal.timeout(hook.timeoutMs);
      let content: unknown;
      try {
        const result = await model.forCall(signal).complete({
          model: model.name,
          systemPrompt: judgeSystemPrompt,
          messages: [{ role: "user", content: promptFor(config.prompt, point, ctx) }],
          tools: [],
        });
        content = result?.response?.content;
      } catch (error) {
        if (signal.aborted) {
          throw new RunnerError(
            "RUN_ERR_HOOK_TIMEOUT",
            `the judge did not answer within ${hook.timeoutMs} ms`,
            where,
          );
        }
        throw new RunnerError("RUN_ERR_MODEL_FAILED", `the judge's model failed: ${errorText(error)}`, {
          ...where,
          cause: error,
        });
      }
      if (typeof content !== "string") {
        throw new RunnerError("RUN_ERR_VERDICT_INVALID", "the judge's model answered without text", where);
      }
      const verdict = parseVerdict(content, judgeVerdictSchema, where);
      return verdict.ok ? undefined : refusalAt(point, verdict.reason);
    },
  };
  return hook;
}

/** Claude Code's convention: `$ARGUMENTS` is the hook's input as JSON, appended when the prompt has none. */
function promptFor(prompt: string, point: Point, ctx: AnyCtx): string {
  const { sessionId: _session, depth: _depth, ...rest } = ctx;
  const json = JSON.stringify({ point, ...rest });
  return prompt.includes("$ARGUMENTS") ? prompt.split("$ARGUMENTS").join(json) : `${prompt}\n\n${json}`;
}
