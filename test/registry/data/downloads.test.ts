import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DownloadCounter } from "../../../registry/data/downloads.js";
import type { DownloadCount, RegistryStore } from "../../../registry/store.js";
import { countRows, hookPackage, publish, startRegistry, type TestRegistry } from "../helpers.js";

async function downloadsShown(reg: TestRegistry, name: string): Promise<number> {
  return (await reg.call(`/v1/search?q=${name}`)).json.results[0].downloads;
}

async function downloadTimes(reg: TestRegistry, name: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    expect((await reg.call(`/v1/packages/${name}/1.0.0/tarball`)).status).toBe(200);
  }
}

describe("download counts", () => {
  it("reach search within the flush interval, with no flush asked for", async () => {
    const reg = await startRegistry({ downloadFlushMs: 50 });
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    await downloadTimes(reg, "guard", 3);
    const deadline = Date.now() + 5_000;
    let shown = await downloadsShown(reg, "guard");
    while (shown !== 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      shown = await downloadsShown(reg, "guard");
    }
    expect(shown).toBe(3);
  });

  it("a search writes nothing: it answers at once while another process holds the write lock", async () => {
    const reg = await startRegistry({ downloadFlushMs: 60_000 });
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    await downloadTimes(reg, "guard", 2);
    const other = new Database(join(reg.dataDir, "registry.sqlite"));
    try {
      other.exec("BEGIN IMMEDIATE");
      const started = performance.now();
      const answer = await reg.call("/v1/search?q=guard");
      expect(answer.status).toBe(200);
      expect(answer.json.results[0].downloads).toBe(0);
      // A write would wait for sqlite's busy timeout (5 s) and then fail.
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    await reg.app.registry.downloads.flush();
    expect(await downloadsShown(reg, "guard")).toBe(2);
  });

  it("a graceful stop writes every counted download: none is lost", async () => {
    const first = await startRegistry({ downloadFlushMs: 60_000 });
    await publish(first, first.admin, await hookPackage({ name: "guard" }), "guard");
    await downloadTimes(first, "guard", 7);
    expect(await countRows(first, "download_counts")).toBe(0);
    await first.close();
    const second = await startRegistry({ root: first.root, dataDir: first.dataDir });
    expect(await downloadsShown(second, "guard")).toBe(7);
  });

  it("HEAD and 304 answers are not downloads", async () => {
    const reg = await startRegistry({ downloadFlushMs: 60_000 });
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    const first = await reg.call("/v1/packages/guard/1.0.0/tarball");
    await reg.call("/v1/packages/guard/1.0.0/tarball", { method: "HEAD" });
    await reg.call("/v1/packages/guard/1.0.0/tarball", {
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
    });
    await reg.app.registry.downloads.flush();
    expect(await downloadsShown(reg, "guard")).toBe(1);
  });

  it("counts whose write failed are written by the next flush", async () => {
    const reg = await startRegistry({ downloadFlushMs: 60_000 });
    const real = reg.app.registry.store;
    let failures = 1;
    const flaky: RegistryStore = Object.create(real, {
      addDownloads: {
        value: async (counts: readonly DownloadCount[]) => {
          if (failures-- > 0) throw new Error("disk full");
          return real.addDownloads(counts);
        },
      },
    });
    const { json } = await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    const versionId = (await real.findTarball("guard", json.version))?.versionId ?? -1;
    const counter = new DownloadCounter(
      flaky,
      () => new Date(),
      () => {},
      60_000,
    );
    counter.record(versionId);
    counter.record(versionId);
    await expect(counter.flush()).rejects.toThrow("disk full");
    counter.record(versionId);
    await counter.close();
    expect(await downloadsShown(reg, "guard")).toBe(3);
  });
});
