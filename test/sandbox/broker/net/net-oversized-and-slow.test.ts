import { describe, expect, it } from "vitest";
import { tempDir } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectBrokerError, recordingServer } from "../helpers.js";

describe("a response too large or too slow", () => {
  it("stops reading at the body cap, whether or not the server announced the length", async () => {
    let written = 0;
    let closed = false;
    const server = await recordingServer((request, response) => {
      if (request.url === "/small") {
        response.end("small");
        return;
      }
      if (request.url === "/announced") {
        response.setHeader("content-length", String(10 * 1024 * 1024));
        response.write("x");
        return;
      }
      // An endless body: only the broker stopping reading ends it.
      const chunk = Buffer.alloc(16 * 1024, 120);
      const pump = () => {
        while (!closed && written < 64 * 1024 * 1024 && response.write(chunk)) written += chunk.length;
      };
      response.on("drain", pump);
      response.on("close", () => {
        closed = true;
      });
      pump();
    });
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${server.port}`], {
      limits: { fetchBodyBytes: 100 * 1024 },
    });
    await expectBrokerError(call("net.fetch", `${server.origin}/endless`), "BROKER_ERR_TOO_LARGE");
    await expectBrokerError(call("net.fetch", `${server.origin}/announced`), "BROKER_ERR_TOO_LARGE");
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
    expect(written).toBeLessThan(8 * 1024 * 1024);
    expect(await agentFetches(root, `${server.origin}/small`)).toBe("small");
  });

  it("refuses a request body over the cap before connecting", async () => {
    const server = await recordingServer((_q, response) => response.end("small"));
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${server.port}`], {
      limits: { fetchBodyBytes: 10 },
    });
    await expectBrokerError(
      call("net.fetch", server.origin, { method: "POST", body: "x".repeat(11) }),
      "BROKER_ERR_TOO_LARGE",
    );
    expect(server.seen).toEqual([]);
    expect(await agentFetches(root, server.origin)).toBe("small");
  });

  it("gives up at the time cap on a server that never answers, or answers drop by drop", async () => {
    const server = await recordingServer((request, response) => {
      if (request.url === "/silent") return;
      if (request.url === "/small") {
        response.end("small");
        return;
      }
      const timer = setInterval(() => response.write("."), 20);
      response.on("close", () => clearInterval(timer));
    });
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${server.port}`], {
      limits: { fetchTimeoutMs: 300 },
    });
    for (const path of ["/silent", "/drip"]) {
      const started = Date.now();
      await expectBrokerError(call("net.fetch", `${server.origin}${path}`), "BROKER_ERR_TIMEOUT");
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect(await agentFetches(root, `${server.origin}/small`)).toBe("small");
  });

  it("a hook may give up sooner with timeoutMs, never later than the cap", async () => {
    const server = await recordingServer((request, response) => {
      if (request.url === "/small") response.end("small");
    });
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${server.port}`], { limits: { fetchTimeoutMs: 3_000 } });
    let started = Date.now();
    await expectBrokerError(
      call("net.fetch", `${server.origin}/silent`, { timeoutMs: 150 }),
      "BROKER_ERR_TIMEOUT",
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    const capped = brokerFor(root, [`net:127.0.0.1:${server.port}`], { limits: { fetchTimeoutMs: 200 } });
    started = Date.now();
    await expectBrokerError(
      capped.call("net.fetch", `${server.origin}/silent`, { timeoutMs: 60_000 }),
      "BROKER_ERR_TIMEOUT",
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await agentFetches(root, `${server.origin}/small`)).toBe("small");
  });
});

/** The agent check: a hook holding the attack's grant fetches a small, quick answer from the same server. */
async function agentFetches(root: string, url: string): Promise<string> {
  return agentSession({
    root,
    grants: [`net:${new URL(url).host}`],
    use: `return (await api.net.fetch("${url}")).body;`,
  });
}
