import { expect, it } from "vitest";
import { describeEachBackend, hookPackage, publish, startRegistry, tokenFor } from "../helpers.js";

describeEachBackend("owners", () => {
  it("the publisher owns a new package; an added owner may publish; the last owner stays", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const bob = await tokenFor(reg, "bob");
    await publish(reg, alice, await hookPackage({ name: "guard" }), "guard");
    expect((await reg.call("/v1/packages/guard/owners")).json).toEqual({ name: "guard", owners: ["alice"] });

    const change = (token: string, json: object) =>
      reg.call("/v1/packages/guard/owners", { method: "PUT", token, json });
    expect((await change(bob, { add: ["bob"] })).json.error.code).toBe("REG_ERR_FORBIDDEN");
    expect((await change(alice, { add: ["bob"] })).json.owners).toEqual(["alice", "bob"]);
    const next = await hookPackage({ name: "guard", version: "1.1.0" });
    expect((await publish(reg, bob, next, "guard", "1.1.0")).status).toBe(201);

    expect((await change(bob, { remove: ["alice"] })).json.owners).toEqual(["bob"]);
    const last = await change(bob, { remove: ["bob"] });
    expect(last.status).toBe(409);
    expect(last.json.error.code).toBe("REG_ERR_LAST_OWNER");
    expect((await reg.call("/v1/packages/guard/owners")).json.owners).toEqual(["bob"]);
    // Removing everyone while adding someone else is fine: the package is never left without an owner.
    expect((await change(bob, { add: ["alice"], remove: ["bob"] })).json.owners).toEqual(["alice"]);
  });

  it("unknown owners and packages are 404; an empty change is a validation error", async () => {
    const reg = await startRegistry();
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    const change = (path: string, json: object) => reg.call(path, { method: "PUT", token: reg.admin, json });
    expect((await change("/v1/packages/guard/owners", { add: ["nobody"] })).json.error.code).toBe(
      "REG_ERR_OWNER_NOT_FOUND",
    );
    expect((await change("/v1/packages/nope/owners", { add: ["admin"] })).json.error.code).toBe(
      "REG_ERR_PACKAGE_NOT_FOUND",
    );
    expect((await change("/v1/packages/guard/owners", {})).json.error.code).toBe("REG_ERR_VALIDATION");
    expect((await reg.call("/v1/packages/nope/owners")).json.error.code).toBe("REG_ERR_PACKAGE_NOT_FOUND");
  });

  it("the first publisher in a scope claims it; its owners decide who else publishes there", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const bob = await tokenFor(reg, "bob");
    expect((await publish(reg, alice, await hookPackage({ name: "@acme/one" }), "@acme/one")).status).toBe(
      201,
    );
    expect((await reg.call("/v1/scopes/@acme/owners")).json).toEqual({ scope: "@acme", owners: ["alice"] });
    expect((await reg.call("/v1/packages/%40acme%2Fone/owners")).json.scope).toEqual({
      name: "@acme",
      owners: ["alice"],
    });
    const two = await hookPackage({ name: "@acme/two" });
    expect((await publish(reg, bob, two, "@acme/two")).status).toBe(403);
    const scope = (token: string, json: object) =>
      reg.call("/v1/scopes/@acme/owners", { method: "PUT", token, json });
    expect((await scope(bob, { add: ["bob"] })).json.error.code).toBe("REG_ERR_FORBIDDEN");
    expect((await scope(alice, { add: ["bob"] })).json.owners).toEqual(["alice", "bob"]);
    expect((await publish(reg, bob, two, "@acme/two")).status).toBe(201);
    // A scope owner may manage every package in the scope.
    const yank = await reg.call("/v1/packages/%40acme%2Fone/1.0.0/yank", {
      method: "POST",
      token: bob,
      json: { reason: "scope owner" },
    });
    expect(yank.status).toBe(200);
    expect((await scope(alice, { remove: ["alice", "bob"] })).json.error.code).toBe("REG_ERR_LAST_OWNER");
  });
});
