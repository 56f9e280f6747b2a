import { expect, it } from "vitest";
import { countRows, describeEachBackend, hookPackage, publish, startRegistry, tokenFor } from "../helpers.js";

describeEachBackend("concurrent publishes", () => {
  it("of one version: exactly one 201 and one 409, twenty times over, and the loser leaves no blob", async () => {
    const reg = await startRegistry({ rateLimit: { publish: { max: 1000 } } });
    for (let round = 0; round < 20; round++) {
      const version = `1.0.${round}`;
      // Even rounds race identical bytes, odd rounds two different tarballs for the same version.
      const first = await hookPackage({ name: "contested", version });
      const second =
        round % 2 === 0
          ? first
          : await hookPackage({ name: "contested", version, description: "the other one" });
      const answers = await Promise.all([
        publish(reg, reg.admin, first, "contested", version),
        publish(reg, reg.admin, second, "contested", version),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)?.json.error.code).toBe("REG_ERR_VERSION_EXISTS");
      const winner = answers.find((a) => a.status === 201)?.json;
      const served = await reg.call(`/v1/packages/contested/${version}/tarball`);
      expect(served.status).toBe(200);
      expect(served.headers.get("etag")).toBe(`"${winner.integrity}"`);
    }
    expect(await countRows(reg, "versions")).toBe(20);
    expect(await reg.app.registry.blobs.list()).toHaveLength(20);
  });

  it("of one new name by two owners: one owns it, the other is refused", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const bob = await tokenFor(reg, "bob");
    const tarball = await hookPackage({ name: "fresh" });
    const bobs = await hookPackage({ name: "fresh", description: "bob's" });
    const answers = await Promise.all([
      publish(reg, alice, tarball, "fresh"),
      publish(reg, bob, bobs, "fresh"),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403]);
    const owners = (await reg.call("/v1/packages/fresh/owners")).json.owners;
    expect(owners).toEqual([answers[0]?.status === 201 ? "alice" : "bob"]);
    expect(await reg.app.registry.blobs.list()).toHaveLength(1);
  });
});
