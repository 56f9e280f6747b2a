import * as z from "zod";
import { fetchFailureText, RunnerError } from "../../core/errors.js";
import type { Decision } from "../../core/hook.js";
import { type CompiledHook, defaults } from "../compiled-hook.js";
import {
  type CompileContext,
  compiledSettings,
  configuredHookBaseSchema,
  hookPayload,
  parseDecisionText,
} from "./settings.js";

/** A hook as a web service: the ctx is POSTed as JSON; a 2xx JSON body is the decision. */
export const httpHookSchema = configuredHookBaseSchema
  .extend({
    engine: z.literal("http"),
    url: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type HttpHookConfig = z.infer<typeof httpHookSchema>;

const bodyCap = 1024 * 1024;

export function httpHook(config: HttpHookConfig, context: CompileContext): CompiledHook {
  const hook: CompiledHook = {
    ...compiledSettings(config, context, defaults.externalTimeoutMs),
    engine: "http",
    trust: "trusted",
    source: config.url,
    selfTimed: true,
    run: async (point, ctx) => {
      const fail = (message: string, cause?: unknown) =>
        new RunnerError("RUN_ERR_HTTP_FAILED", `${config.url}: ${message}`, {
          hook: hook.name,
          point,
          cause,
        });
      // The timeout signal covers the body too: a server that stalls mid-answer has timed out as well.
      const failed = (error: unknown, message: string) =>
        (error as Error).name === "TimeoutError"
          ? new RunnerError(
              "RUN_ERR_HOOK_TIMEOUT",
              `${config.url} did not answer within ${hook.timeoutMs} ms`,
              {
                hook: hook.name,
                point,
              },
            )
          : fail(message, error);
      let response: Response;
      try {
        response = await fetch(config.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...config.headers },
          body: hookPayload(hook, point, ctx),
          signal: AbortSignal.timeout(hook.timeoutMs),
        });
      } catch (error) {
        throw failed(error, `request failed (${fetchFailureText(error)})`);
      }
      const body = await readCapped(response).catch((error: unknown) => {
        throw failed(error, `reading the answer failed (${(error as Error).message})`);
      });
      if (response.status < 200 || response.status > 299) {
        throw fail(`answered ${response.status}${body.trim() ? `: ${body.trim().slice(0, 300)}` : ""}`);
      }
      if (body.trim() === "") return undefined;
      try {
        const parsed = parseDecisionText(body);
        if (parsed) return parsed.json as Decision;
      } catch {
        // fall through: not JSON
      }
      throw fail("answered 2xx with a body that is not a JSON object");
    },
  };
  return hook;
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return "";
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > bodyCap) throw new Error(`answer larger than ${bodyCap} bytes`);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
