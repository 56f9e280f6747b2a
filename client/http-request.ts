import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

/** An answer as the registry client reads it: status, headers, and a body read once. */
export interface HttpAnswer {
  status: number;
  ok: boolean;
  header(name: string): string | undefined;
  /** The body, chunk by chunk (for downloads with progress). */
  body: AsyncIterable<Buffer>;
  text(): Promise<string>;
  /** Stops reading: the connection is dropped. */
  discard(): void;
}

export interface HttpRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  signal: AbortSignal;
}

/**
 * One HTTP(S) request with node:http: the CLI's registry calls need no more than this, and Node's
 * global fetch costs about 60 ms of loading on first use, a fifth of an install. Redirects are not
 * followed (a 3xx is an answer like any other); `signal` aborts the request and the body.
 */
export function request(url: string, init: HttpRequestInit): Promise<HttpAnswer> {
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      target,
      { method: init.method ?? "GET", headers: init.headers ?? {}, signal: init.signal },
      (incoming: IncomingMessage) => {
        const status = incoming.statusCode ?? 0;
        resolve({
          status,
          ok: status >= 200 && status < 300,
          header: (name) => {
            const value = incoming.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          },
          body: incoming,
          text: async () => {
            const chunks: Buffer[] = [];
            for await (const chunk of incoming) chunks.push(chunk as Buffer);
            return Buffer.concat(chunks).toString("utf8");
          },
          discard: () => incoming.destroy(),
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}
