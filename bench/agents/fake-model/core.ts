import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake model server for driving a real coding agent offline: HTTP on 127.0.0.1, a port of its
 * own, every request logged (method, path, headers, body parsed as JSON when it is). What a request
 * is answered with is the provider's (anthropic.ts, …): the core only serves and records.
 */
export interface LoggedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON, else its text ("" for none). */
  body: unknown;
  /** The raw body text, for a search that does not care about its shape. */
  text: string;
}

export type Route = (request: LoggedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeModel {
  url: string;
  port: number;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

export async function startFakeModel(route: Route): Promise<FakeModel> {
  const requests: LoggedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        if (text) body = JSON.parse(text);
      } catch {}
      const logged: LoggedRequest = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0] ?? "/",
        headers: req.headers,
        body,
        text,
      };
      requests.push(logged);
      Promise.resolve(route(logged, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: String(error) }));
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
