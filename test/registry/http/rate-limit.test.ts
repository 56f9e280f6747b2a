import { expect, it } from "vitest";
import { describeEachBackend, hookPackage, publish, startRegistry, storedState } from "../helpers.js";

describeEachBackend("rate limits", () => {
  it("failed authentications trip the limit, and then even a good token from there waits", async () => {
    const reg = await startRegistry({ rateLimit: { failedAuth: { max: 3, timeWindowMs: 60_000 } } });
    for (let i = 0; i < 3; i++) {
      expect((await reg.call("/v1/tokens", { token: `hyk_wrong${i}` })).json.error.code).toBe(
        "REG_ERR_TOKEN_INVALID",
      );
    }
    const tripped = await reg.call("/v1/tokens", { token: "hyk_wrong" });
    expect(tripped.status).toBe(429);
    expect(tripped.json.error.code).toBe("REG_ERR_RATE_LIMITED");
    expect(Number(tripped.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await reg.call("/v1/tokens", { token: reg.admin })).status).toBe(429);
    // Public reads are not affected.
    expect((await reg.call("/v1/search")).status).toBe(200);
  });

  it("counts per client address: behind a trusted proxy, per X-Forwarded-For", async () => {
    const behindProxy = await startRegistry({
      trustProxy: "127.0.0.1",
      rateLimit: { failedAuth: { max: 2, timeWindowMs: 60_000 } },
    });
    const from = (client: string, token: string) =>
      behindProxy.call("/v1/tokens", { token, headers: { "x-forwarded-for": client } });
    for (let i = 0; i < 3; i++) await from("203.0.113.7", "hyk_wrong");
    expect((await from("203.0.113.7", behindProxy.admin)).status).toBe(429);
    expect((await from("198.51.100.9", behindProxy.admin)).status).toBe(200);

    // Without trustProxy the header is not believed: it cannot be used to dodge the limit.
    const direct = await startRegistry({ rateLimit: { failedAuth: { max: 2, timeWindowMs: 60_000 } } });
    for (let i = 0; i < 3; i++) {
      await direct.call("/v1/tokens", { token: "hyk_wrong", headers: { "x-forwarded-for": `192.0.2.${i}` } });
    }
    expect((await direct.call("/v1/tokens", { token: direct.admin })).status).toBe(429);
  });

  it("successful authentications do not count", async () => {
    const reg = await startRegistry({ rateLimit: { failedAuth: { max: 2, timeWindowMs: 60_000 } } });
    for (let i = 0; i < 10; i++)
      expect((await reg.call("/v1/tokens", { token: reg.admin })).status).toBe(200);
  });

  it("publishes are limited per token, and a limited publish stores nothing", async () => {
    const reg = await startRegistry({ rateLimit: { publish: { max: 2, timeWindowMs: 60_000 } } });
    for (const version of ["1.0.0", "1.0.1"]) {
      const answer = await publish(
        reg,
        reg.admin,
        await hookPackage({ name: "guard", version }),
        "guard",
        version,
      );
      expect(answer.status).toBe(201);
    }
    const before = await storedState(reg);
    const third = await publish(
      reg,
      reg.admin,
      await hookPackage({ name: "guard", version: "1.0.2" }),
      "guard",
      "1.0.2",
    );
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe("REG_ERR_RATE_LIMITED");
    expect(await storedState(reg)).toEqual(before);
  });
});
