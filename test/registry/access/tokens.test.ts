import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import {
  describeEachBackend,
  filesUnder,
  hookPackage,
  publish,
  startRegistry,
  tokenFor,
} from "../helpers.js";

describeEachBackend("tokens", () => {
  it("are shown once at creation, listed without secrets, and stored only as a hash", async () => {
    const reg = await startRegistry();
    const created = await reg.call("/v1/tokens", {
      method: "POST",
      token: reg.admin,
      json: { owner: "alice", scope: "publish", expires: "30d", description: "ci" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const secret = created.json.token as string;
    expect(secret).toMatch(/^hyk_[A-Za-z0-9_-]{43}$/);
    expect(created.json).toMatchObject({
      owner: "alice",
      scope: "publish",
      description: "ci",
      revokedAt: null,
    });
    expect(Date.parse(created.json.expiresAt) - Date.parse(created.json.createdAt)).toBe(30 * 86_400_000);

    const listed = await reg.call("/v1/tokens", { token: secret });
    expect(listed.json.tokens.map((t: { id: string }) => t.id)).toEqual([created.json.id]);
    expect(listed.bytes.toString()).not.toContain(secret.slice(4));
    expect(Object.keys(listed.json.tokens[0]).sort()).toEqual(
      ["createdAt", "description", "expiresAt", "id", "owner", "revokedAt", "scope"].sort(),
    );

    // Neither the secret nor the admin's is anywhere in the data dir (database, WAL, keys).
    await reg.close();
    for (const file of await filesUnder(reg.dataDir)) {
      const bytes = await readFile(join(reg.dataDir, file));
      expect(bytes.includes(secret), file).toBe(false);
      expect(bytes.includes(reg.admin), file).toBe(false);
    }
  });

  it("a revoked token fails at once, with its own code", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    expect((await publish(reg, alice, await hookPackage({ name: "guard" }), "guard")).status).toBe(201);
    const [mine] = (await reg.call("/v1/tokens", { token: alice })).json.tokens;
    const revoked = await reg.call(`/v1/tokens/${mine.id}`, { method: "DELETE", token: alice });
    expect(revoked.status).toBe(200);
    expect(revoked.json.revokedAt).toBeTypeOf("string");
    const next = await publish(
      reg,
      alice,
      await hookPackage({ name: "guard", version: "1.0.1" }),
      "guard",
      "1.0.1",
    );
    expect(next.status).toBe(401);
    expect(next.json.error.code).toBe("REG_ERR_TOKEN_REVOKED");
    expect((await reg.call("/v1/tokens", { token: alice })).json.error.code).toBe("REG_ERR_TOKEN_REVOKED");
  });

  it("an expired token is refused", async () => {
    let now = new Date("2030-01-01T00:00:00Z");
    const reg = await startRegistry({ now: () => now });
    const created = await reg.call("/v1/tokens", {
      method: "POST",
      token: reg.admin,
      json: { owner: "alice", expires: "1h" },
    });
    const alice = created.json.token;
    expect((await reg.call("/v1/tokens", { token: alice })).status).toBe(200);
    now = new Date("2030-01-01T01:00:00Z");
    const late = await reg.call("/v1/tokens", { token: alice });
    expect(late.status).toBe(401);
    expect(late.json.error.code).toBe("REG_ERR_TOKEN_EXPIRED");
  });

  it("a token makes tokens only for its own owner and at most its own scope", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const reader = await tokenFor(reg, "alice", "read");
    const make = (token: string, json: object) => reg.call("/v1/tokens", { method: "POST", token, json });
    expect((await make(alice, { scope: "read" })).status).toBe(201);
    expect((await make(alice, { scope: "admin" })).json.error.code).toBe("REG_ERR_FORBIDDEN");
    expect((await make(alice, { owner: "bob" })).json.error.code).toBe("REG_ERR_FORBIDDEN");
    expect((await make(reader, { scope: "publish" })).json.error.code).toBe("REG_ERR_FORBIDDEN");
    expect((await make(alice, { expires: "forever" })).json.error.code).toBe("REG_ERR_VALIDATION");
  });

  it("nobody but an admin sees or revokes another owner's tokens", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const bob = await tokenFor(reg, "bob");
    const [bobs] = (await reg.call("/v1/tokens", { token: bob })).json.tokens;
    const denied = await reg.call(`/v1/tokens/${bobs.id}`, { method: "DELETE", token: alice });
    expect(denied.status).toBe(404);
    expect(denied.json.error.code).toBe("REG_ERR_TOKEN_NOT_FOUND");
    expect((await reg.call("/v1/tokens?owner=bob", { token: alice })).json.error.code).toBe(
      "REG_ERR_FORBIDDEN",
    );
    expect((await reg.call("/v1/tokens", { token: bob })).status).toBe(200);
    const all = (await reg.call("/v1/tokens", { token: reg.admin })).json.tokens;
    expect(all.map((t: { owner: string }) => t.owner).sort()).toEqual(["admin", "alice", "bob"]);
    expect((await reg.call(`/v1/tokens/${bobs.id}`, { method: "DELETE", token: reg.admin })).status).toBe(
      200,
    );
    expect((await reg.call("/v1/tokens", { token: bob })).json.error.code).toBe("REG_ERR_TOKEN_REVOKED");
  });
});
