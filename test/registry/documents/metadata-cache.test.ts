import { describe, expect, it } from "vitest";
import { PackageDocuments } from "../../../registry/documents/package-documents.js";
import { importVersions } from "../../../registry/publish/import.js";
import type { RegistryStore, VersionRecord } from "../../../registry/store.js";
import { hookPackage, publish, startRegistry, type TestRegistry } from "../helpers.js";

/** Package documents are kept serialised between writes: every write must show on the next GET. */

async function withVersions(reg: TestRegistry, name: string, versions: string[]): Promise<void> {
  for (const version of versions) {
    const answer = await publish(reg, reg.admin, await hookPackage({ name, version }), name, version);
    expect(answer.status).toBe(201);
  }
}

const post = (reg: TestRegistry, path: string, json: object) =>
  reg.call(path, { method: "POST", token: reg.admin, json });

describe("metadata reads after writes", () => {
  it("a publish shows on the very next GET of a document that was just read", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    const before = await reg.call("/v1/packages/guard");
    expect(Object.keys(before.json.versions)).toEqual(["1.0.0"]);
    await withVersions(reg, "guard", ["1.1.0"]);
    const after = await reg.call("/v1/packages/guard");
    expect(Object.keys(after.json.versions)).toEqual(["1.0.0", "1.1.0"]);
    expect(after.json["dist-tags"].latest).toBe("1.1.0");
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
  });

  it("a yank and an unyank show on the very next GET", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0", "1.1.0"]);
    expect((await reg.call("/v1/packages/guard")).json["dist-tags"].latest).toBe("1.1.0");
    await post(reg, "/v1/packages/guard/1.1.0/yank", { reason: "leaks the prompt" });
    const yanked = (await reg.call("/v1/packages/guard")).json;
    expect(yanked["dist-tags"].latest).toBe("1.0.0");
    expect(yanked.versions["1.1.0"]).toMatchObject({ yanked: true, yankedReason: "leaks the prompt" });
    await post(reg, "/v1/packages/guard/1.1.0/yank", { undo: true });
    const back = (await reg.call("/v1/packages/guard")).json;
    expect(back["dist-tags"].latest).toBe("1.1.0");
    expect(back.versions["1.1.0"]).toMatchObject({ yanked: false, yankedReason: null });
  });

  it("a deprecation and its undoing show on the very next GET", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    expect((await reg.call("/v1/packages/guard")).json.versions["1.0.0"].deprecated).toBeNull();
    await post(reg, "/v1/packages/guard/1.0.0/deprecate", { message: "use shell-guard" });
    expect((await reg.call("/v1/packages/guard")).json.versions["1.0.0"].deprecated).toBe("use shell-guard");
    await post(reg, "/v1/packages/guard/1.0.0/deprecate", { undo: true });
    expect((await reg.call("/v1/packages/guard")).json.versions["1.0.0"].deprecated).toBeNull();
  });

  it("versions imported without HTTP show on the next GET", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    expect(Object.keys((await reg.call("/v1/packages/guard")).json.versions)).toEqual(["1.0.0"]);
    await importVersions(reg.app.registry, [
      {
        name: "guard",
        version: "2.0.0",
        owner: "admin",
        tarball: await hookPackage({ name: "guard", version: "2.0.0" }),
      },
    ]);
    expect((await reg.call("/v1/packages/guard")).json["dist-tags"].latest).toBe("2.0.0");
  });

  it("a refused write changes nothing that is shown", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    const before = await reg.call("/v1/packages/guard");
    const again = await publish(
      reg,
      reg.admin,
      await hookPackage({ name: "guard", description: "other" }),
      "guard",
    );
    expect(again.json.error.code).toBe("REG_ERR_VERSION_EXISTS");
    expect((await post(reg, "/v1/packages/guard/9.9.9/yank", { reason: "x" })).status).toBe(404);
    const after = await reg.call("/v1/packages/guard");
    expect(after.bytes.equals(before.bytes)).toBe(true);
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
  });

  it("a document built from rows read before a write is sent to its reader but not kept", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    const real = reg.app.registry.store;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let slow = true;
    // A store whose reads take a while, as a networked database's would: the rows are read, then
    // a yank commits before they reach the document.
    const slowStore: RegistryStore = Object.create(real, {
      listVersions: {
        value: async (packageId: number): Promise<VersionRecord[]> => {
          const rows = await real.listVersions(packageId);
          if (slow) await gate;
          return rows;
        },
      },
    });
    const documents = new PackageDocuments(slowStore, 1024 * 1024);
    const building = documents.get("guard");
    await post(reg, "/v1/packages/guard/1.0.0/yank", { reason: "r" });
    release();
    const old = JSON.parse((await building)?.body.toString() ?? "{}");
    expect(old.versions["1.0.0"].yanked).toBe(false);
    slow = false;
    const next = JSON.parse((await documents.get("guard"))?.body.toString() ?? "{}");
    expect(next.versions["1.0.0"].yanked).toBe(true);
  });

  it("writes racing reads: once a write is answered, no later GET shows the document from before it", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0", "1.1.0"]);
    const latest = async () => (await reg.call("/v1/packages/guard")).json["dist-tags"].latest as string;
    for (let round = 0; round < 10; round++) {
      const yank = round % 2 === 0;
      const readers = Array.from({ length: 8 }, () => latest());
      const write = await post(reg, "/v1/packages/guard/1.1.0/yank", yank ? { reason: "r" } : { undo: true });
      expect(write.status).toBe(200);
      await Promise.all(readers);
      const expected = yank ? "1.0.0" : "1.1.0";
      const after = await Promise.all(Array.from({ length: 8 }, () => latest()));
      expect(after, `round ${round}`).toEqual(Array(8).fill(expected));
    }
  });
});

describe("metadata ETags", () => {
  it("If-None-Match with the current ETag is a 304 without a body; after a write the tag is stale", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    const first = await reg.call("/v1/packages/guard");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const unchanged = await reg.call("/v1/packages/guard", { headers: { "if-none-match": header } });
      expect(unchanged.status, header).toBe(304);
      expect(unchanged.bytes.length).toBe(0);
      expect(unchanged.headers.get("etag")).toBe(etag);
    }

    await withVersions(reg, "guard", ["1.1.0"]);
    const changed = await reg.call("/v1/packages/guard", { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.json["dist-tags"].latest).toBe("1.1.0");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("the ETag names the bytes: a yank taken back gives the first document and tag again", async () => {
    const reg = await startRegistry();
    await withVersions(reg, "guard", ["1.0.0"]);
    const first = await reg.call("/v1/packages/guard");
    await post(reg, "/v1/packages/guard/1.0.0/yank", { reason: "r" });
    const yanked = await reg.call("/v1/packages/guard");
    expect(yanked.headers.get("etag")).not.toBe(first.headers.get("etag"));
    await post(reg, "/v1/packages/guard/1.0.0/yank", { undo: true });
    const back = await reg.call("/v1/packages/guard");
    expect(back.bytes.equals(first.bytes)).toBe(true);
    expect(back.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("an unknown package is a 404 whatever If-None-Match says", async () => {
    const reg = await startRegistry();
    const answer = await reg.call("/v1/packages/nothing-here", { headers: { "if-none-match": "*" } });
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe("REG_ERR_PACKAGE_NOT_FOUND");
    expect(answer.headers.get("etag")).toBeNull();
  });
});

describe("metadata memory", () => {
  it("with a budget too small to keep any document, every read is still right", async () => {
    const reg = await startRegistry({ cache: { documentBytes: 0 } });
    await withVersions(reg, "guard", ["1.0.0"]);
    const first = await reg.call("/v1/packages/guard");
    expect(first.json["dist-tags"].latest).toBe("1.0.0");
    await withVersions(reg, "guard", ["1.1.0"]);
    expect((await reg.call("/v1/packages/guard")).json["dist-tags"].latest).toBe("1.1.0");
  });
});
