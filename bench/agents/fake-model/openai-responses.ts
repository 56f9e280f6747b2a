import type { ServerResponse } from "node:http";
import { type FakeModel, type LoggedRequest, sendJson, startFakeModel } from "./core.js";

/**
 * OpenAI's Responses API as Codex calls it (a custom provider with `wire_api = "responses"`):
 * POST <base_url>/responses, answered as server-sent events. Requests that offer tools are the main
 * loop's, answered by the script one step each, in order; once the script is spent, and for a
 * request with no tools (a title, a compaction), the answer is plain text. GET /models is answered
 * with an empty list, so nothing waits on a model catalogue.
 */
export type ResponsesStep = { text: string } | { call: { name: string; args: Record<string, unknown> } };

export interface ResponsesRequest {
  model?: string;
  instructions?: string;
  input?: unknown[];
  tools?: unknown[];
}

export interface ResponsesModel extends FakeModel {
  /** The main loop's requests, in order (the ones the script answered). */
  turns(): ResponsesRequest[];
  /** Every POST …/responses, main or side, in order. */
  responseRequests(): LoggedRequest[];
}

const responsesPath = /\/responses$/;

export async function startResponsesModel(
  script: ResponsesStep[],
  options: { finalText?: string } = {},
): Promise<ResponsesModel> {
  const main: ResponsesRequest[] = [];
  let calls = 0;
  const model = await startFakeModel((request, res) => {
    if (request.method === "GET" && request.path.endsWith("/models")) {
      sendJson(res, 200, { object: "list", data: [], models: [] });
      return;
    }
    if (request.method !== "POST" || !responsesPath.test(request.path)) {
      sendJson(res, 404, { error: { message: `no route ${request.method} ${request.path}` } });
      return;
    }
    const body = request.body as ResponsesRequest;
    let step: ResponsesStep = { text: options.finalText ?? "Done." };
    if ((body.tools ?? []).length > 0) {
      const turn = main.length;
      main.push(body);
      const next = script[turn];
      if (next !== undefined) step = next;
    }
    calls++;
    reply(res, step, calls);
  });
  return {
    ...model,
    turns: () => [...main],
    responseRequests: () => model.requests.filter((r) => r.method === "POST" && responsesPath.test(r.path)),
  };
}

function reply(res: ServerResponse, step: ResponsesStep, n: number): void {
  const id = `resp_fake_${n}`;
  const item =
    "text" in step
      ? {
          type: "message",
          id: `msg_fake_${n}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: step.text, annotations: [] }],
        }
      : {
          type: "function_call",
          id: `fc_fake_${n}`,
          call_id: `call_fake_${n}`,
          name: step.call.name,
          arguments: JSON.stringify(step.call.args),
          status: "completed",
        };
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  };
  const events: Array<Record<string, unknown>> = [
    { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item },
    { type: "response.output_item.done", output_index: 0, item },
    {
      type: "response.completed",
      response: { id, object: "response", status: "completed", output: [item], usage },
    },
  ];
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

/** Everything a request carries (instructions, input items, tool outputs), as one string to search. */
export function responsesRequestText(request: ResponsesRequest | LoggedRequest): string {
  return JSON.stringify("input" in request ? request.input : (request as LoggedRequest).body);
}
