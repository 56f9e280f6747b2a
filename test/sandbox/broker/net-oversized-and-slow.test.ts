import { describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp.js";
import { brokerFor, expectBrokerError, recordingServer } from "./helpers.js";

describe("a response too large or too slow", () => {
  it("stops reading at the body cap, whether or not the server announced the length", async () => {
    let written = 0;
    let closed = false;
    const server = await recordingServer((request, response) => {
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
    const { call } = brokerFor(await tempDir(), [`net:127.0.0.1:${server.port}`], {
      limits: { fetchBodyBytes: 100 * 1024 },
    });
    await expectBrokerError(call("net.fetch", `${server.origin}/endless`), "BROKER_ERR_TOO_LARGE");
    await expectBrokerError(call("net.fetch", `${server.origin}/announced`), "BROKER_ERR_TOO_LARGE");
    await expect.poll(() => closed, { timeout: 2_000 }).toBe(true);
    expect(written).toBeLessThan(8 * 1024 * 1024);
  });

  it("refuses a request body over the cap before connecting", async () => {
    const server = await recordingServer((_q, response) => response.end());
    const { call } = brokerFor(await tempDir(), [`net:127.0.0.1:${server.port}`], {
      limits: { fetchBodyBytes: 10 },
    });
    await expectBrokerError(
      call("net.fetch", server.origin, { method: "POST", body: "x".repeat(11) }),
      "BROKER_ERR_TOO_LARGE",
    );
    expect(server.seen).toEqual([]);
  });

  it("gives up at the time cap on a server that never answers, or answers drop by drop", async () => {
    const server = await recordingServer((request, response) => {
      if (request.url === "/silent") return;
      const timer = setInterval(() => response.write("."), 20);
      response.on("close", () => clearInterval(timer));
    });
    const { call } = brokerFor(await tempDir(), [`net:127.0.0.1:${server.port}`], {
      limits: { fetchTimeoutMs: 300 },
    });
    for (const path of ["/silent", "/drip"]) {
      const started = Date.now();
      await expectBrokerError(call("net.fetch", `${server.origin}${path}`), "BROKER_ERR_TIMEOUT");
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });
});
