import { expect, it } from "vitest";
import { describeEachBackend, hookPackage, publish, startRegistry, type TestRegistry } from "./helpers.js";

async function seed(
  reg: TestRegistry,
  packages: Array<{ name: string; description: string; keywords?: string[] }>,
) {
  for (const spec of packages) {
    const answer = await publish(reg, reg.admin, await hookPackage(spec), spec.name);
    expect(answer.status).toBe(201);
  }
}

const names = (answer: { json: { results: Array<{ name: string }> } }) =>
  answer.json.results.map((r) => r.name);

describeEachBackend("search", () => {
  it("finds by name, description and keyword, a name match ranking first", async () => {
    const reg = await startRegistry();
    await seed(reg, [
      { name: "redact-secrets", description: "hides AWS keys in tool output", keywords: ["privacy"] },
      {
        name: "shell-guard",
        description: "blocks rm -rf and other secrets of destruction",
        keywords: ["safety"],
      },
      { name: "notify-desktop", description: "desktop notifications", keywords: ["secrets"] },
    ]);
    const bySecrets = await reg.call("/v1/search?q=secrets");
    expect(bySecrets.json.total).toBe(3);
    expect(names(bySecrets)[0]).toBe("redact-secrets");
    expect(names(await reg.call("/v1/search?q=privacy"))).toEqual(["redact-secrets"]);
    expect(names(await reg.call("/v1/search?q=desktop%20notif"))).toEqual(["notify-desktop"]);
    expect(names(await reg.call("/v1/search?q=nothing-like-this"))).toEqual([]);
    const hit = (await reg.call("/v1/search?q=shell")).json.results[0];
    expect(hit).toEqual({
      name: "shell-guard",
      description: "blocks rm -rf and other secrets of destruction",
      keywords: ["safety"],
      version: "1.0.0",
      downloads: 0,
    });
  });

  it("ranks equally relevant packages by downloads", async () => {
    const reg = await startRegistry();
    await seed(reg, [
      { name: "alpha-audit", description: "audit log" },
      { name: "bravo-audit", description: "audit log" },
      { name: "charlie-audit", description: "audit log" },
    ]);
    expect(names(await reg.call("/v1/search?q=audit"))).toEqual([
      "alpha-audit",
      "bravo-audit",
      "charlie-audit",
    ]);
    for (let i = 0; i < 3; i++) await reg.call("/v1/packages/charlie-audit/1.0.0/tarball");
    await reg.call("/v1/packages/bravo-audit/1.0.0/tarball");
    // Counts are written in batches (once a second), not by the search that reads them.
    await reg.app.registry.downloads.flush();
    expect(names(await reg.call("/v1/search?q=audit"))).toEqual([
      "charlie-audit",
      "bravo-audit",
      "alpha-audit",
    ]);
    expect(names(await reg.call("/v1/search"))).toEqual(["charlie-audit", "bravo-audit", "alpha-audit"]);
  });

  it("pages with limit and offset, and reports the total", async () => {
    const reg = await startRegistry();
    await seed(
      reg,
      Array.from({ length: 5 }, (_, i) => ({ name: `page-${i}`, description: "paged" })),
    );
    const first = await reg.call("/v1/search?q=paged&limit=2");
    const third = await reg.call("/v1/search?q=paged&limit=2&offset=4");
    expect(first.json).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(first.json.results).toHaveLength(2);
    expect(third.json.results).toHaveLength(1);
    expect(names(third)).not.toContain(names(first)[0]);
  });

  it("user input is never FTS5 syntax: quotes, operators, stars and column filters are just text", async () => {
    const reg = await startRegistry();
    await seed(reg, [{ name: "foo-bar", description: "plain" }]);
    for (const q of [
      '"',
      "foo*)",
      "(",
      "NEAR(foo bar)",
      "foo OR",
      "AND",
      "name:foo",
      "-foo",
      "^foo",
      "'",
      "*",
      "{foo}",
      "\u0000",
      "ü",
    ]) {
      const answer = await reg.call(`/v1/search?q=${encodeURIComponent(q)}`);
      expect(answer.status, q).toBe(200);
    }
    expect(names(await reg.call(`/v1/search?q=${encodeURIComponent('"foo*)')}`))).toEqual(["foo-bar"]);
    expect(names(await reg.call(`/v1/search?q=${encodeURIComponent("description:plain")}`))).toEqual([]);
  });

  it("shows a package by its latest version, and follows yanks", async () => {
    const reg = await startRegistry();
    await seed(reg, [{ name: "guard", description: "old words" }]);
    const v2 = await hookPackage({ name: "guard", version: "2.0.0", description: "new words" });
    expect((await publish(reg, reg.admin, v2, "guard", "2.0.0")).status).toBe(201);
    expect((await reg.call("/v1/search?q=new")).json.results[0]).toMatchObject({
      name: "guard",
      version: "2.0.0",
    });
    expect(names(await reg.call("/v1/search?q=old"))).toEqual([]);
    await reg.call("/v1/packages/guard/2.0.0/yank", {
      method: "POST",
      token: reg.admin,
      json: { reason: "bad" },
    });
    expect((await reg.call("/v1/search?q=old")).json.results[0]).toMatchObject({
      name: "guard",
      version: "1.0.0",
    });
  });
});
