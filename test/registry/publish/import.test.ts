import { expect, it } from "vitest";
import { importVersions } from "../../../registry/publish/import.js";
import { countRows, describeEachBackend, hookPackage, startRegistry, storedState } from "../helpers.js";

describeEachBackend("importVersions (seeding without HTTP)", (backend) => {
  it("stores many versions in one go, readable as if published", async () => {
    const reg = await startRegistry();
    const items = [];
    for (let p = 0; p < 20; p++) {
      for (const version of ["1.0.0", "1.1.0", "2.0.0"]) {
        const name = `seeded-${p}`;
        items.push({ name, version, owner: `owner-${p % 3}`, tarball: await hookPackage({ name, version }) });
      }
    }
    const records = await importVersions(reg.app.registry, items, { durable: false });
    expect(records).toHaveLength(60);
    expect(await countRows(reg, "versions")).toBe(60);
    const doc = (await reg.call("/v1/packages/seeded-7")).json;
    expect(doc["dist-tags"].latest).toBe("2.0.0");
    expect((await reg.call("/v1/packages/seeded-7/owners")).json.owners).toEqual(["owner-1"]);
    expect((await reg.call("/v1/packages/seeded-7/1.1.0/tarball")).status).toBe(200);
    expect((await reg.call("/v1/search?q=seeded&limit=100")).json.total).toBe(20);
  });

  it("lands whole or not at all: one bad item commits nothing (and, on one process, stores nothing)", async () => {
    const reg = await startRegistry();
    const before = await storedState(reg);
    const good = {
      name: "good",
      version: "1.0.0",
      owner: "alice",
      tarball: await hookPackage({ name: "good" }),
    };
    const taken = { ...good, tarball: await hookPackage({ name: "good", description: "again" }) };
    await expect(importVersions(reg.app.registry, [good, taken])).rejects.toMatchObject({
      code: "REG_ERR_VERSION_EXISTS",
    });
    const after = await storedState(reg);
    // On PostgreSQL another process may be committing those bytes: they stay for a lone start's sweep.
    expect(after.blobs).toHaveLength(before.blobs.length + (backend === "sqlite" ? 0 : 2));
    expect(after.versions).toBe(0);
    expect((await reg.call("/v1/packages/good/1.0.0/tarball")).status).toBe(404);
    const broken = { ...good, name: "other" };
    await expect(importVersions(reg.app.registry, [broken])).rejects.toMatchObject({
      code: "REG_ERR_NAME_MISMATCH",
    });
  });
});
