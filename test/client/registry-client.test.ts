import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RegistryClient } from "../../client/registry-client.js";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the registry client's transport", () => {
  it("a registry that never answers is a clear timeout, not a hang", async () => {
    const url = await serve(() => {});
    const client = new RegistryClient(url, { timeoutMs: 200 });
    const started = Date.now();
    await expect(client.keys()).rejects.toMatchObject({
      code: "CLI_ERR_REGISTRY_UNREACHABLE",
      message: expect.stringContaining("no answer within 0.2 s"),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a closed port names the connection error", async () => {
    const url = await serve(() => {});
    servers.pop()?.close();
    await new Promise((settled) => setTimeout(settled, 50));
    await expect(new RegistryClient(url).keys()).rejects.toMatchObject({
      code: "CLI_ERR_REGISTRY_UNREACHABLE",
      message: expect.stringContaining("ECONNREFUSED"),
    });
  });

  it("a download larger than allowed stops early as a bad answer, whatever the headers say", async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      // No content-length: the size is only known by counting.
      for (let i = 0; i < 64; i++) response.write(Buffer.alloc(1024));
      response.end();
    });
    await expect(new RegistryClient(url).download(`${url}/t`, 10 * 1024)).rejects.toMatchObject({
      code: "CLI_ERR_REGISTRY_BAD_ANSWER",
      message: expect.stringContaining("more than the 10240 bytes"),
    });
  });

  it("a redirect is not followed: the answer is refused as not a registry's", async () => {
    const target = await serve((_request, response) => response.end('{"keys":[]}'));
    const url = await serve((_request, response) => {
      response.writeHead(302, { location: `${target}/v1/keys` });
      response.end();
    });
    await expect(new RegistryClient(url).keys()).rejects.toMatchObject({
      code: "CLI_ERR_REGISTRY_BAD_ANSWER",
      message: expect.stringContaining("HTTP 302"),
    });
  });

  it("an answer that is not JSON is a bad answer", async () => {
    const url = await serve((_request, response) => response.end("<html>proxy login</html>"));
    await expect(new RegistryClient(url).keys()).rejects.toMatchObject({
      code: "CLI_ERR_REGISTRY_BAD_ANSWER",
    });
  });
});
