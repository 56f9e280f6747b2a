import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A local endpoint that keeps what audit-webhook posts: the demo's stand-in for a log service. */
export async function startAuditCollector(): Promise<{
  port: number;
  records: unknown[];
  close(): Promise<void>;
}> {
  const records: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        records.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        records.push({ unreadable: true });
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    port: (server.address() as AddressInfo).port,
    records,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
