import { expect, it } from "vitest";
import { describeEachBackend, hookPackage, publish, startRegistry, tokenFor } from "../helpers.js";

describeEachBackend("yank and deprecate", () => {
  it("a yank hides a version from latest with its reason, keeps its bytes, and can be undone", async () => {
    const reg = await startRegistry();
    for (const version of ["1.0.0", "1.1.0"]) {
      await publish(reg, reg.admin, await hookPackage({ name: "guard", version }), "guard", version);
    }
    const yank = (body: object) =>
      reg.call("/v1/packages/guard/1.1.0/yank", { method: "POST", token: reg.admin, json: body });
    const yanked = await yank({ reason: "leaks the prompt" });
    expect(yanked.status).toBe(200);
    expect(yanked.json).toMatchObject({ version: "1.1.0", yanked: true, yankedReason: "leaks the prompt" });
    let doc = (await reg.call("/v1/packages/guard")).json;
    expect(doc["dist-tags"].latest).toBe("1.0.0");
    expect(doc.versions["1.1.0"]).toMatchObject({ yanked: true, yankedReason: "leaks the prompt" });
    expect((await reg.call("/v1/packages/guard/1.1.0/tarball")).status).toBe(200);

    expect((await yank({ undo: true })).json).toMatchObject({ yanked: false, yankedReason: null });
    doc = (await reg.call("/v1/packages/guard")).json;
    expect(doc["dist-tags"].latest).toBe("1.1.0");
  });

  it("with every version yanked there is no latest", async () => {
    const reg = await startRegistry();
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    await reg.call("/v1/packages/guard/1.0.0/yank", {
      method: "POST",
      token: reg.admin,
      json: { reason: "x" },
    });
    expect((await reg.call("/v1/packages/guard")).json["dist-tags"]).toEqual({});
  });

  it("a deprecation carries a message and can be taken back", async () => {
    const reg = await startRegistry();
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    const deprecate = (body: object) =>
      reg.call("/v1/packages/guard/1.0.0/deprecate", { method: "POST", token: reg.admin, json: body });
    expect((await deprecate({ message: "use shell-guard" })).json.deprecated).toBe("use shell-guard");
    expect((await reg.call("/v1/packages/guard")).json.versions["1.0.0"].deprecated).toBe("use shell-guard");
    expect((await deprecate({ undo: true })).json.deprecated).toBeNull();
  });

  it("only owners may yank or deprecate; bodies are checked; unknown versions are 404", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const mallory = await tokenFor(reg, "mallory");
    await publish(reg, alice, await hookPackage({ name: "guard" }), "guard");
    const post = (path: string, token: string, json: object) =>
      reg.call(path, { method: "POST", token, json });
    expect((await post("/v1/packages/guard/1.0.0/yank", mallory, { reason: "x" })).json.error.code).toBe(
      "REG_ERR_FORBIDDEN",
    );
    expect((await post("/v1/packages/guard/1.0.0/deprecate", mallory, { message: "x" })).status).toBe(403);
    expect((await post("/v1/packages/guard/1.0.0/yank", alice, { reason: "" })).json.error.code).toBe(
      "REG_ERR_VALIDATION",
    );
    expect((await post("/v1/packages/guard/1.0.0/yank", alice, { undo: false })).status).toBe(400);
    expect((await post("/v1/packages/guard/9.9.9/yank", alice, { reason: "x" })).json.error.code).toBe(
      "REG_ERR_VERSION_NOT_FOUND",
    );
    expect((await reg.call("/v1/packages/guard")).json.versions["1.0.0"].yanked).toBe(false);
  });

  it("every write is in the audit log: who, what, when", async () => {
    let now = new Date("2030-05-01T10:00:00Z");
    const reg = await startRegistry({ now: () => now });
    const alice = await tokenFor(reg, "alice");
    await publish(reg, alice, await hookPackage({ name: "guard" }), "guard");
    now = new Date("2030-05-01T11:00:00Z");
    await reg.call("/v1/packages/guard/1.0.0/yank", {
      method: "POST",
      token: alice,
      json: { reason: "oops" },
    });
    const entries = (await reg.call("/v1/audit", { token: reg.admin })).json.entries;
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      "version.yank",
      "version.publish",
      "package.create",
      "token.create",
      "token.create",
    ]);
    expect(entries[0]).toMatchObject({
      actor: "alice",
      subject: "guard@1.0.0",
      at: "2030-05-01T11:00:00.000Z",
      details: { reason: "oops" },
    });
    expect(entries[0].tokenId).toMatch(/^[0-9a-f]{16}$/);
    expect(entries.at(-1)).toMatchObject({
      actor: "(local)",
      action: "token.create",
      details: { owner: "admin" },
    });
    expect((await reg.call("/v1/audit", { token: alice })).json.error.code).toBe("REG_ERR_FORBIDDEN");
  });
});
