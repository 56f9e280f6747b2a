import * as z from "zod";
import { describeIssues, fetchFailureText, RunnerError } from "../../../core/errors.js";
import type { Message } from "../../../core/events.js";
import type { Model, ModelRequest, ModelResult } from "../model.js";

export interface OpenAIModelOptions {
  model: string;
  /** Any OpenAI-compatible endpoint: OpenAI, Ollama, vLLM, llama.cpp server. Ends before `/chat/completions`. */
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Cancels a call in flight (a hook's deadline). */
  signal?: AbortSignal;
}

/** What we read of a chat-completions answer; servers differ in the rest. */
const wireResponseSchema = z.looseObject({
  choices: z.array(
    z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        tool_calls: z
          .array(
            z.looseObject({
              id: z.string().min(1).optional(),
              function: z.looseObject({
                name: z.string().min(1),
                // A JSON string per the API; some servers send the object itself.
                arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default("{}"),
              }),
            }),
          )
          .nullish(),
      }),
    }),
  ),
  usage: z
    .looseObject({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() })
    .nullish(),
});

/** Chat completions with tool calls over fetch; no SDK, so any compatible server works. */
export class OpenAIModel implements Model {
  readonly name: string;
  private calls = 0;

  constructor(private readonly options: OpenAIModelOptions) {
    this.name = options.model;
  }

  async complete(request: ModelRequest): Promise<ModelResult> {
    const url = `${this.options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    const body = {
      model: this.options.model,
      messages: [{ role: "system", content: request.systemPrompt }, ...request.messages.map(toWire)],
      ...(request.tools.length > 0
        ? {
            tools: request.tools.map((t) => ({
              type: "function",
              function: { name: t.name, description: t.description, parameters: t.parameters },
            })),
          }
        : {}),
    };
    const fail = (message: string, cause?: unknown) =>
      new RunnerError("RUN_ERR_MODEL_FAILED", `${url}: ${message}`, { cause });
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.any([
          AbortSignal.timeout(this.options.timeoutMs ?? 120_000),
          ...(this.options.signal ? [this.options.signal] : []),
        ]),
      });
    } catch (error) {
      throw fail(fetchFailureText(error), error);
    }
    const text = await response.text();
    if (!response.ok) throw fail(`answered ${response.status}: ${text.slice(0, 300)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw fail("answered with something that is not JSON", error);
    }
    const parsed = wireResponseSchema.safeParse(json);
    if (!parsed.success) throw fail(`answered in an unexpected shape (${describeIssues(parsed.error)})`);
    const [choice] = parsed.data.choices;
    const message = choice?.message;
    if (!message) throw fail("answered without choices[0].message");
    return {
      response: {
        content: message.content ?? "",
        toolCalls: (message.tool_calls ?? []).map((call, i) => ({
          // Some local servers send no id; the loop needs one to pair the result with the call.
          id: call.id ?? `call_${++this.calls}_${i}`,
          name: call.function.name,
          args: parseArguments(call.function.arguments),
        })),
      },
      usage: {
        inputTokens: parsed.data.usage?.prompt_tokens ?? 0,
        outputTokens: parsed.data.usage?.completion_tokens ?? 0,
      },
    };
  }
}

function toWire(message: Message): Record<string, unknown> {
  if (message.role === "tool")
    return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  if (message.role === "assistant" && message.toolCalls?.length) {
    return {
      role: "assistant",
      content: message.content || null,
      tool_calls: message.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      })),
    };
  }
  return { role: message.role, content: message.content };
}

/** Models sometimes send arguments that are not a JSON object; the tool then reports bad arguments. */
function parseArguments(text: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof text !== "string") return text;
  try {
    const value = JSON.parse(text || "{}") as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { _unparsed: text };
}
