import { expect, it } from "vitest";
import { describeEachBackend, startRegistry, tokenFor } from "./helpers.js";

describeEachBackend("advisories", () => {
  it("an admin files them; anyone reads them by package names", async () => {
    const reg = await startRegistry();
    const create = (token: string, json: object) =>
      reg.call("/v1/advisories", { method: "POST", token, json });
    const filed = await create(reg.admin, {
      package: "guard",
      range: "<1.2.3",
      severity: "high",
      text: "leaks tool output to the network",
    });
    expect(filed.status).toBe(201);
    expect(filed.json).toMatchObject({ id: 1, package: "guard", range: "<1.2.3", severity: "high" });
    await create(reg.admin, { package: "@acme/x", range: ">=2 <2.4.1", severity: "low", text: "noisy" });

    const answer = await reg.call("/v1/advisories?names=guard,@acme/x,clean");
    expect(Object.keys(answer.json.advisories)).toEqual(["guard", "@acme/x", "clean"]);
    expect(answer.json.advisories.guard).toHaveLength(1);
    expect(answer.json.advisories.guard[0]).toMatchObject({ text: "leaks tool output to the network" });
    expect(answer.json.advisories["@acme/x"][0].range).toBe(">=2 <2.4.1");
    expect(answer.json.advisories.clean).toEqual([]);
  });

  it("non-admins cannot file them, and bad ranges and severities are refused", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const create = (token: string, json: object) =>
      reg.call("/v1/advisories", { method: "POST", token, json });
    const good = { package: "guard", range: "<2", severity: "critical", text: "bad" };
    expect((await create(alice, good)).json.error.code).toBe("REG_ERR_FORBIDDEN");
    expect((await create(reg.admin, { ...good, range: "not a range" })).json.error.code).toBe(
      "REG_ERR_VALIDATION",
    );
    expect((await create(reg.admin, { ...good, severity: "meh" })).json.error.code).toBe(
      "REG_ERR_VALIDATION",
    );
    expect((await create(reg.admin, { ...good, package: "Not Valid" })).json.error.code).toBe(
      "REG_ERR_VALIDATION",
    );
    expect((await reg.call("/v1/advisories?names=guard")).json.advisories.guard).toEqual([]);
    expect((await reg.call("/v1/advisories")).json.error.code).toBe("REG_ERR_VALIDATION");
  });
});
