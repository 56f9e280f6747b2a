import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

const running: Server[] = [];
afterEach(async () => {
  await Promise.all(
    running.splice(0).map(
      (server) =>
        new Promise((done) => {
          server.closeAllConnections();
          server.close(done);
        }),
    ),
  );
});

/** A chat-completions answer whose message says `content`, with the tool calls given. */
export function completion(content: string, toolCalls: Array<{ name: string; args?: object }> = []) {
  return {
    choices: [
      {
        message: {
          content,
          tool_calls: toolCalls.map((call, i) => ({
            id: `call_${i}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
          })),
        },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5 },
  };
}

/**
 * An OpenAI-compatible server on 127.0.0.1 (port 0), closed after the test: `answer` gets each
 * request's JSON body and the response to write. Returns the base URL (ending in /v1) and the
 * bodies and authorization headers it received.
 */
export async function openAIStub(answer: (body: Record<string, unknown>, res: ServerResponse) => void) {
  const received: Array<Record<string, unknown>> = [];
  const authorization: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    authorization.push(req.headers.authorization);
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push(body);
      answer(body, res);
    });
  });
  running.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, received, authorization };
}

export function sendJson(res: ServerResponse, body: unknown): void {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(body));
}

/** The chat messages of a request the stub received (none when there was no such request). */
export function messagesOf(
  body: Record<string, unknown> | undefined,
): Array<{ role: string; content: string }> {
  return (body?.messages ?? []) as Array<{ role: string; content: string }>;
}
