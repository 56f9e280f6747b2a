import { readFile } from "node:fs/promises";
import * as z from "zod";
import { describeIssues, RunnerError } from "../../../core/errors.js";
import type { Model, ModelRequest, ModelResult } from "../model.js";

export const scriptSchema = z.strictObject({
  /** The prompt `hookyard run` uses when none is given. */
  prompt: z.string().optional(),
  systemPrompt: z.string().optional(),
  responses: z
    .array(
      z.strictObject({
        content: z.string().default(""),
        toolCalls: z
          .array(
            z.strictObject({ name: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }),
          )
          .default([]),
        /** Wait this long before answering: a slow model, or one a test kills the run under. */
        delayMs: z.number().int().min(0).max(600_000).optional(),
      }),
    )
    .min(1),
});
export type Script = z.infer<typeof scriptSchema>;

/**
 * Replays a JSON script of responses, one per model call, and keeps every request it was sent so
 * a test or a transcript can show exactly what the model saw.
 */
export class ScriptedModel implements Model {
  readonly name = "scripted";
  readonly requests: ModelRequest[] = [];
  private next = 0;
  private calls = 0;

  constructor(readonly script: Script) {}

  static async fromFile(file: string): Promise<ScriptedModel> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      // Nothing to fix in a script that is not there: say which path was read.
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new RunnerError(
        "RUN_ERR_SCRIPT_INVALID",
        `no model script can be read at ${file} (${code}): check the path after scripted: (it is relative to the current directory)`,
        { cause: error },
      );
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new RunnerError("RUN_ERR_SCRIPT_INVALID", `${file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return new ScriptedModel(ScriptedModel.parse(data, file));
  }

  static parse(data: unknown, origin = "script"): Script {
    const parsed = scriptSchema.safeParse(data);
    if (!parsed.success)
      throw new RunnerError("RUN_ERR_SCRIPT_INVALID", `${origin}: ${describeIssues(parsed.error)}`);
    return parsed.data;
  }

  async complete(request: ModelRequest): Promise<ModelResult> {
    this.requests.push(structuredClone(request));
    const step = this.script.responses[this.next++];
    if (step?.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    const content = step?.content ?? "(the script has no more responses)";
    const toolCalls = (step?.toolCalls ?? []).map((call) => ({
      id: `call_${++this.calls}`,
      name: call.name,
      args: call.args,
    }));
    const inputTokens = Math.ceil(
      (request.systemPrompt.length + JSON.stringify(request.messages).length) / 4,
    );
    return {
      response: { content, toolCalls },
      usage: { inputTokens, outputTokens: Math.ceil(content.length / 4) },
    };
  }
}
