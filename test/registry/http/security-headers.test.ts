import { describe, expect, it } from "vitest";
import { hookPackage, publish, startRegistry } from "../helpers.js";

const expected = {
  "content-security-policy": expect.stringContaining("default-src 'self'"),
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "no-referrer",
  "x-request-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
};

describe("security headers (helmet's defaults) and a request id", () => {
  it("are on every kind of answer: reads, 304s, refusals before the handler, unknown routes", async () => {
    const reg = await startRegistry();
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    const metadata = await reg.call("/v1/packages/guard");
    const answers = {
      metadata,
      notModified: await reg.call("/v1/packages/guard", {
        headers: { "if-none-match": metadata.headers.get("etag") ?? "" },
      }),
      tarball: await reg.call("/v1/packages/guard/1.0.0/tarball"),
      head: await reg.call("/v1/packages/guard", { method: "HEAD" }),
      badToken: await reg.call("/v1/tokens", { method: "POST", token: "nope", json: {} }),
      invalid: await reg.call("/v1/search?limit=0"),
      unknownRoute: await reg.call("/v1/nothing"),
    };
    expect(Object.values(answers).map((a) => a.status)).toEqual([200, 304, 200, 200, 401, 400, 404]);
    for (const [label, answer] of Object.entries(answers)) {
      expect(Object.fromEntries(answer.headers), label).toMatchObject(expected);
    }
  });
});
