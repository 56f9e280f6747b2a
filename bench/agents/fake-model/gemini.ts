import type { ServerResponse } from "node:http";
import { type FakeModel, type LoggedRequest, sendJson, startFakeModel } from "./core.js";

/**
 * Google's Gemini API as Gemini CLI calls it: POST /v1beta/models/<model>:streamGenerateContent
 * (SSE with `alt=sse`), :generateContent (one JSON answer) and :countTokens. The main loop's
 * requests (those that offer tools) are answered by the script, one step each, in order; once the
 * script is spent, and for every side request (a routing or next-speaker check: no tools), the
 * answer is plain text (JSON `{}` where the request asks for JSON).
 */
export type GeminiStep = { text: string } | { call: { name: string; args: Record<string, unknown> } };

export interface GenerateRequest {
  contents: Array<{ role?: string; parts?: unknown[] }>;
  systemInstruction?: unknown;
  tools?: Array<{ functionDeclarations?: unknown[] }>;
  generationConfig?: { responseMimeType?: string };
}

export interface GeminiModel extends FakeModel {
  /** The main loop's generate requests, in order (the ones the script answered). */
  turns(): GenerateRequest[];
  /** Every generate request (main or side), in order. */
  generateRequests(): LoggedRequest[];
}

const generatePath =
  /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

export async function startGeminiModel(
  script: GeminiStep[] | ((turn: number, request: GenerateRequest) => GeminiStep),
  options: { finalText?: string } = {},
): Promise<GeminiModel> {
  const main: GenerateRequest[] = [];
  const model = await startFakeModel((request, res) => {
    const match = generatePath.exec(request.path);
    if (request.method !== "POST" || !match) {
      sendJson(res, 404, { error: { code: 404, message: `no route ${request.method} ${request.path}` } });
      return;
    }
    if (match[2] === "countTokens") {
      sendJson(res, 200, { totalTokens: 100 });
      return;
    }
    const body = request.body as GenerateRequest;
    const isMain = (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);
    const wantsJson = body.generationConfig?.responseMimeType === "application/json";
    let step: GeminiStep = { text: wantsJson ? "{}" : (options.finalText ?? "Done.") };
    if (isMain) {
      const turn = main.length;
      main.push(body);
      const next = typeof script === "function" ? script(turn, body) : script[turn];
      if (next !== undefined) step = next;
    }
    reply(res, match[2] === "streamGenerateContent", step, match[1] ?? "gemini-fake");
  });
  return {
    ...model,
    turns: () => [...main],
    generateRequests: () =>
      model.requests.filter((r) => generatePath.test(r.path) && !r.path.endsWith(":countTokens")),
  };
}

function reply(res: ServerResponse, stream: boolean, step: GeminiStep, modelVersion: string): void {
  const part =
    "text" in step ? { text: step.text } : { functionCall: { name: step.call.name, args: step.call.args } };
  const chunk = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion,
  };
  if (!stream) {
    sendJson(res, 200, chunk);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

/** Every text a request carries (system, contents, function responses), as one string to search. */
export function geminiRequestText(request: GenerateRequest | LoggedRequest): string {
  return JSON.stringify("contents" in request ? request.contents : request.body);
}
