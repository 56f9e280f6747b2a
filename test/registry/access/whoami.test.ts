import { describe, expect, it } from "vitest";
import { startRegistry } from "../helpers.js";

describe("GET /v1/whoami", () => {
  it("answers the calling token's record, without its secret, for any scope", async () => {
    const reg = await startRegistry();
    const made = await reg.call("/v1/tokens", {
      method: "POST",
      token: reg.admin,
      json: { owner: "alice", scope: "read", description: "laptop" },
    });
    const answer = await reg.call("/v1/whoami", { token: made.json.token });
    expect(answer.status).toBe(200);
    const { token: _secret, ...record } = made.json;
    expect(answer.json).toEqual(record);
    expect(answer.bytes.toString()).not.toContain(made.json.token);
  });

  it("answers 401 with the token's own code: none, unknown, revoked", async () => {
    const reg = await startRegistry();
    expect((await reg.call("/v1/whoami")).json.error.code).toBe("REG_ERR_AUTH_REQUIRED");
    expect((await reg.call("/v1/whoami", { token: "hyk_unknown" })).json.error.code).toBe(
      "REG_ERR_TOKEN_INVALID",
    );
    const made = await reg.call("/v1/tokens", { method: "POST", token: reg.admin, json: { owner: "bob" } });
    await reg.call(`/v1/tokens/${made.json.id}`, { method: "DELETE", token: reg.admin });
    const revoked = await reg.call("/v1/whoami", { token: made.json.token });
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.code).toBe("REG_ERR_TOKEN_REVOKED");
  });
});
