import { readFile, rm, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { FsBlobStore } from "../../registry/blobs/fs-blob-store.js";
import { hookPackage, logSink, publish, startRegistry } from "./helpers.js";

describe("stored blobs are checked before they are served", () => {
  it("a blob whose bytes were changed on disk is not served: 500 REG_ERR_BLOB_CORRUPT, logged", async () => {
    const logs = logSink();
    const reg = await startRegistry({ logger: { level: "error", stream: logs.stream } });
    const tarball = await hookPackage({ name: "guard" });
    const { integrity } = (await publish(reg, reg.admin, tarball, "guard")).json;
    const file = (reg.app.registry.blobs as FsBlobStore).fileOf(integrity);
    const bytes = await readFile(file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    await writeFile(file, bytes);

    const answer = await reg.call("/v1/packages/guard/1.0.0/tarball");
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
    const { integrity } = (await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard")).json;
    await rm((reg.app.registry.blobs as FsBlobStore).fileOf(integrity));
    const answer = await reg.call("/v1/packages/guard/1.0.0/tarball");
    expect(answer.status).toBe(500);
    expect(answer.json.error.code).toBe("REG_ERR_BLOB_MISSING");
    expect((await reg.call("/v1/packages/guard")).status).toBe(200);
  });
});
