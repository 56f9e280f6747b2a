import type { ServerResponse } from "node:http";
import { type FakeModel, type LoggedRequest, sendJson, startFakeModel } from "./core.js";

/**
 * Anthropic's Messages API, as Claude Code calls it: POST /v1/messages (streamed as SSE when
 * `stream` is set, else one JSON message), POST /v1/messages/count_tokens, and HEAD / (its
 * reachability probe). The main loop's requests (those that offer tools) are answered by the
 * script, one step each, in order; once the script is spent, and for every side request (a title,
 * a summary: no tools), the answer is plain text.
 */
export type Step = { text: string } | { toolUse: { name: string; input: Record<string, unknown> } };

export interface AnthropicModel extends FakeModel {
  /** The main loop's /v1/messages requests, in order (the ones the script answered). */
  turns(): MessagesRequest[];
}

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: unknown[];
  messages: Array<{ role: string; content: unknown }>;
}

export async function startAnthropicModel(
  script: Step[] | ((turn: number, request: MessagesRequest) => Step),
  options: { finalText?: string } = {},
): Promise<AnthropicModel> {
  const main: MessagesRequest[] = [];
  let ids = 0;
  const model = await startFakeModel((request, res) => {
    if (request.method === "HEAD" || (request.method === "GET" && request.path === "/")) {
      res.writeHead(200);
      res.end();
      return;
    }
    if (request.path === "/v1/messages/count_tokens") {
      sendJson(res, 200, { input_tokens: 100 });
      return;
    }
    if (request.path !== "/v1/messages" || request.method !== "POST") {
      sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: request.path } });
      return;
    }
    const body = request.body as MessagesRequest;
    const isMain = Array.isArray(body.tools) && body.tools.length > 0;
    let step: Step = { text: options.finalText ?? "Done." };
    if (isMain) {
      const turn = main.length;
      main.push(body);
      const next = typeof script === "function" ? script(turn, body) : script[turn];
      if (next !== undefined) step = next;
    }
    ids++;
    reply(res, body, step, `msg_fake_${ids}`, `toolu_fake_${ids}`);
  });
  return { ...model, turns: () => [...main] };
}

function reply(res: ServerResponse, body: MessagesRequest, step: Step, id: string, toolId: string): void {
  const block =
    "text" in step
      ? { type: "text", text: step.text }
      : { type: "tool_use", id: toolId, name: step.toolUse.name, input: step.toolUse.input };
  const stopReason = "text" in step ? "end_turn" : "tool_use";
  const usage = {
    input_tokens: 100,
    output_tokens: 10,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  const modelName = body.model ?? "claude-fake";
  if (!body.stream) {
    sendJson(res, 200, {
      id,
      type: "message",
      role: "assistant",
      model: modelName,
      content: [block],
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model: modelName,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  if (block.type === "text") {
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    event("content_block_delta", { index: 0, delta: { type: "text_delta", text: block.text } });
  } else {
    event("content_block_start", {
      index: 0,
      content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
    });
    event("content_block_delta", {
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
    });
  }
  event("content_block_stop", { index: 0 });
  event("message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  event("message_stop", {});
  res.end();
}

/** Every text a request carries (system, messages, tool results), as one string to search. */
export function requestText(request: MessagesRequest | LoggedRequest): string {
  return JSON.stringify("messages" in request ? request.messages : request.body);
}
