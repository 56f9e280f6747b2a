import { readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { type BrokerOptions, createBroker, memoryAuditSink } from "../../../sandbox/broker/index.js";
import { parseGrants } from "../../../sandbox/capabilities.js";

/** A broker for `root` with grants written as a user writes them, recording its audit in memory. */
export function brokerFor(root: string, grants: string[], options: Partial<BrokerOptions> = {}) {
  const audit = memoryAuditSink();
  const broker = createBroker({ hook: "probe", root, grants: parseGrants(grants), audit, ...options });
  return {
    audit,
    broker,
    /** Calls a method the way the runtime does: the guest's arguments as one array. */
    call: (method: string, ...args: unknown[]) => broker.call(method, args),
  };
}

/** Expects a CapabilityDenied naming exactly the grant that would allow the call. */
export async function expectDenied(call: Promise<unknown>, needs: string): Promise<void> {
  await expect(call).rejects.toMatchObject({ name: "CapabilityDenied", code: "CAPABILITY_DENIED", needs });
  await call.catch((error: Error) => expect(error.message.startsWith(`needs ${needs}`)).toBe(true));
}

/** Expects a BrokerError with `code` whose message shows no host path from `hidden`. */
export async function expectBrokerError(call: Promise<unknown>, code: string, hidden: string[] = []) {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as (Error & { code?: string }) | undefined;
  expect(error, "the call should have failed").toBeDefined();
  expect(error).toMatchObject({ name: "BrokerError", code });
  for (const path of hidden) expect(error?.message).not.toContain(path);
  expect(error?.stack ?? "").not.toMatch(/node:internal/);
  return error as Error & { code: string };
}

/** A file outside the grants whose content a test checks afterwards. */
export async function canaryFile(dir: string, name = "canary.txt") {
  const path = join(dir, name);
  const content = `CANARY-${Math.random().toString(36).slice(2)}`;
  await writeFile(path, content);
  return {
    path,
    content,
    unchanged: async () => (await readFile(path, "utf8")) === content,
  };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** An HTTP server on 127.0.0.1:<free port> that records every request it sees; closed after the test. */
export async function recordingServer(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    answer(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, origin: `http://127.0.0.1:${port}`, seen };
}
