import { describe, expect, it } from "vitest";
import { hookPackage, logSink, publish, startRegistry } from "../helpers.js";

describe("logs", () => {
  it("are JSON lines with request ids, and never contain a token", async () => {
    const logs = logSink();
    const reg = await startRegistry({ logger: { level: "trace", stream: logs.stream } });
    const created = await reg.call("/v1/tokens", {
      method: "POST",
      token: reg.admin,
      json: { owner: "alice" },
    });
    const alice = created.json.token as string;
    expect((await publish(reg, alice, await hookPackage({ name: "guard" }), "guard")).status).toBe(201);
    await reg.call("/v1/tokens", { token: "hyk_a-wrong-token-that-must-not-be-logged" });
    await reg.call("/v1/tokens", { headers: { authorization: `Basic ${alice}` } });
    await reg.close();

    const lines = logs.lines();
    const requests = lines.filter((line) => line.req);
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const line of requests) {
      expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
      if (line.req.headers.authorization !== undefined)
        expect(line.req.headers.authorization).toBe("[redacted]");
    }
    expect(requests.some((line) => line.req.headers.authorization === "[redacted]")).toBe(true);
    const text = logs.text();
    for (const secret of [reg.admin, alice, "hyk_a-wrong-token-that-must-not-be-logged"]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(4, 24));
    }
  });
});
