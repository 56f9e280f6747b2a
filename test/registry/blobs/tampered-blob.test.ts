import { rename, stat, utimes, writeFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { computeIntegrity } from "../../../package/integrity.js";
import type { FsBlobStore } from "../../../registry/blobs/fs-blob-store.js";
import {
  describeEachBackend,
  hookPackage,
  logSink,
  overwriteBlob,
  publish,
  rawBlob,
  removeBlob,
  startRegistry,
  type TestRegistry,
} from "../helpers.js";

/**
 * Publishes guard@1.0.0 and returns its bytes, and what changes the stored blob behind the
 * registry's back: a write to its file, or a PutObject through the SDK straight to the bucket.
 */
async function published(reg: TestRegistry) {
  const tarball = await hookPackage({ name: "guard" });
  const { integrity } = (await publish(reg, reg.admin, tarball, "guard")).json;
  return {
    integrity,
    tarball,
    overwrite: (bytes: Buffer) => overwriteBlob(reg, integrity, bytes),
    remove: () => removeBlob(reg, integrity),
    /** The file (embedded registry only). */
    file: () => (reg.app.registry.blobs as FsBlobStore).fileOf(integrity),
  };
}

/** The same bytes with the last one flipped: same size, wrong hash. */
function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[copy.length - 1] = (copy[copy.length - 1] ?? 0) ^ 0xff;
  return copy;
}

const download = (reg: TestRegistry) => reg.call("/v1/packages/guard/1.0.0/tarball");

describeEachBackend("stored blobs are checked before they are served", () => {
  it("a blob whose stored bytes were changed is not served: 500 REG_ERR_BLOB_CORRUPT, logged", async () => {
    const logs = logSink();
    const reg = await startRegistry({ logger: { level: "error", stream: logs.stream } });
    const { integrity, overwrite } = await published(reg);
    const bytes = flipped(await rawBlob(reg, integrity));
    await overwrite(bytes);

    const answer = await download(reg);
    expect(answer.status).toBe(500);
    expect(answer.json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
    expect(answer.bytes.includes(bytes.subarray(0, 64))).toBe(false);
    expect(answer.headers.get("cache-control") ?? "").not.toContain("immutable");
    expect(answer.headers.get("etag")).toBeNull();
    const logged = logs.lines().find((line) => line.msg === "tarball blob does not match its integrity");
    expect(logged).toMatchObject({ level: 50, subject: "guard@1.0.0", expected: integrity });
    expect(typeof logged.reqId).toBe("string");
  });

  it("a blob that vanished is a 500 REG_ERR_BLOB_MISSING, not a crash", async () => {
    const reg = await startRegistry();
    const { remove } = await published(reg);
    await remove();
    const answer = await download(reg);
    expect(answer.status).toBe(500);
    expect(answer.json.error.code).toBe("REG_ERR_BLOB_MISSING");
    expect((await reg.call("/v1/packages/guard")).status).toBe(200);
  });
});

describeEachBackend(
  "a blob changed after it was downloaded once (and is kept verified in memory)",
  (backend) => {
    it("overwritten (same size): the next download is REG_ERR_BLOB_CORRUPT", async () => {
      const reg = await startRegistry();
      const { tarball, overwrite } = await published(reg);
      expect((await download(reg)).bytes.equals(tarball)).toBe(true);
      await overwrite(flipped(tarball));
      const answer = await download(reg);
      expect(answer.status).toBe(500);
      expect(answer.json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
    });

    it.runIf(backend === "sqlite")(
      "written in place with its size and modification time put back: still caught",
      async () => {
        const reg = await startRegistry();
        const { tarball, file: fileOf } = await published(reg);
        const file = fileOf();
        // Whole seconds, so that putting the time back is exact: only the change time can tell.
        const when = new Date("2030-01-01T00:00:00Z");
        await utimes(file, when, when);
        expect((await download(reg)).status).toBe(200);
        const before = await stat(file, { bigint: true });
        await writeFile(file, flipped(tarball));
        await utimes(file, when, when);
        const after = await stat(file, { bigint: true });
        expect([after.ino, after.size, after.mtimeNs]).toEqual([before.ino, before.size, before.mtimeNs]);
        expect((await download(reg)).json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
      },
    );

    it.runIf(backend === "sqlite")("replaced by another file: still caught", async () => {
      const reg = await startRegistry();
      const { tarball, file: fileOf } = await published(reg);
      const file = fileOf();
      expect((await download(reg)).status).toBe(200);
      await writeFile(`${file}.new`, flipped(tarball));
      await rename(`${file}.new`, file);
      expect((await download(reg)).json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
    });

    it("removed: REG_ERR_BLOB_MISSING; put back by the operator: served again", async () => {
      const reg = await startRegistry();
      const { tarball, overwrite, remove } = await published(reg);
      expect((await download(reg)).status).toBe(200);
      await remove();
      expect((await download(reg)).json.error.code).toBe("REG_ERR_BLOB_MISSING");
      await overwrite(flipped(tarball));
      expect((await download(reg)).json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
      await overwrite(tarball);
      const restored = await download(reg);
      expect(restored.status).toBe(200);
      expect(restored.bytes.equals(tarball)).toBe(true);
    });

    it("changed while many downloads are in flight: every 200 carries the published bytes", async () => {
      const reg = await startRegistry();
      const { integrity, tarball, overwrite } = await published(reg);
      expect((await download(reg)).status).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          if (i === 20) await overwrite(flipped(tarball));
          return download(reg);
        }),
      );
      for (const answer of answers) {
        if (answer.status === 200) expect(computeIntegrity(answer.bytes)).toBe(integrity);
        else expect(answer.json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
      }
      expect((await download(reg)).json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
    });
  },
);

describeEachBackend("a blob in a bucket changed behind the registry's back", (backend) => {
  it.runIf(backend === "postgres+s3")(
    "overwritten through the SDK with other bytes, even of the same size: never served, the first download after is REG_ERR_BLOB_CORRUPT",
    async () => {
      const reg = await startRegistry();
      const { integrity, tarball, overwrite } = await published(reg);
      expect(reg.blobs).toMatch(/^s3:\/\//);
      expect((await download(reg)).bytes.equals(tarball)).toBe(true);
      const tampered = flipped(tarball);
      await overwrite(tampered);
      expect((await rawBlob(reg, integrity)).equals(tampered)).toBe(true);
      for (let i = 0; i < 3; i++) {
        const answer = await download(reg);
        expect(answer.status).toBe(500);
        expect(answer.json.error.code).toBe("REG_ERR_BLOB_CORRUPT");
        expect(answer.bytes.includes(tampered.subarray(0, 64))).toBe(false);
      }
      // Overwritten again with the published bytes: a new revision, hashed again, served again.
      await overwrite(tarball);
      expect((await download(reg)).bytes.equals(tarball)).toBe(true);
    },
  );
});
