import { describe, expect, it } from "vitest";
import { publishAs, registryUser } from "../../../helpers/registry-user.js";
import { startRegistry } from "../../../registry/helpers.js";

describe("hookyard advisory create", () => {
  it("publishes an advisory that info then shows, naming the versions it affects", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard", "1.0.0");
    await publishAs(reg, alice.token, "guard", "1.1.0");
    const args = [
      "advisory",
      "create",
      "guard",
      "--range",
      "<1.1.0",
      "--severity",
      "high",
      "--text",
      "leaks env",
    ];
    const result = await alice.run(args, { HOOKYARD_TOKEN: reg.admin });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^published advisory \\d+ on ${reg.url}: guard <1\\.1\\.0 \\(high\\)\n`),
    );
    expect(result.stdout).toContain("- it affects 1.0.0: `hookyard audit` reports it");
    const info = await alice.run(["info", "guard@1.0.0"]);
    expect(info.stdout).toContain("Advisories for 1.0.0");
    expect(info.stdout).toContain("leaks env");

    const none = await alice.run(
      ["advisory", "create", "guard", "--range", ">5", "--severity", "low", "--text", "x", "--json"],
      { HOOKYARD_TOKEN: reg.admin },
    );
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({
      affected: [],
      versions: ["1.0.0", "1.1.0"],
      advisory: { range: ">5" },
    });
  });

  it("refuses a token that is not an admin's, an unknown package, and malformed arguments, publishing nothing", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard");
    const base = ["advisory", "create", "guard", "--severity", "high", "--text", "bad"];

    const notAdmin = await alice.run([...base, "--range", "*"]);
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toContain("REG_ERR_FORBIDDEN");
    expect(notAdmin.stderr).toContain("advisories are published by the registry's admins");

    const admin = { HOOKYARD_TOKEN: reg.admin };
    const unknown = await alice.run(
      ["advisory", "create", "gaurd", "--range", "*", "--severity", "high", "--text", "x"],
      admin,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("CLI_ERR_NOT_FOUND");

    expect((await alice.run([...base, "--range", "not a range"], admin)).code).toBe(2);
    expect(
      (
        await alice.run(
          ["advisory", "create", "guard", "--range", "*", "--severity", "dire", "--text", "x"],
          admin,
        )
      ).code,
    ).toBe(2);
    expect(
      (
        await alice.run(
          ["advisory", "create", "guard@1.0.0", "--range", "*", "--severity", "low", "--text", "x"],
          admin,
        )
      ).code,
    ).toBe(2);
    expect(
      (await alice.run(["advisory", "create", "guard", "--severity", "low", "--text", "x"], admin)).code,
    ).toBe(2);

    const advisories = await reg.call("/v1/advisories?names=guard,gaurd");
    expect(advisories.json.advisories).toEqual({ guard: [], gaurd: [] });
  });
});
