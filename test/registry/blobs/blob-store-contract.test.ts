import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../package/integrity.js";
import type { BlobStore } from "../../../registry/blobs/blob-store.js";
import { openBlobStoreFromUrl, parseBlobsUrl } from "../../../registry/blobs/blob-url.js";
import type { FsBlobStore } from "../../../registry/blobs/fs-blob-store.js";
import type { S3BlobStore } from "../../../registry/blobs/s3-blob-store.js";
import { VerifiedBlobs } from "../../../registry/blobs/verified-blobs.js";
import { fileS3, s3Credentials } from "../../helpers/s3.js";
import { tempDir } from "../../helpers/temp.js";

/**
 * The BlobStore contract, one test body run on each backend: the file store and the S3 store
 * (against s3rver, test/helpers/s3.ts). `overwrite` changes a stored blob behind the store's
 * back, as a disk error or an attacker with write access to the bucket would.
 */
interface Backend {
  name: string;
  /** A fresh, empty store; `pageSize` for the S3 list's page (the file store has none). */
  open(options?: {
    pageSize?: number;
    prefix?: string;
    sameAs?: string;
  }): Promise<{ store: BlobStore; where: string }>;
  overwrite(store: BlobStore, integrity: string, bytes: Buffer): Promise<void>;
  /** Something under the store's root that is not a blob of its own. */
  stray(store: BlobStore, where: string): Promise<void>;
}

const s3 = fileS3();
const opened: BlobStore[] = [];

const backends: Backend[] = [
  {
    name: "file",
    async open(options = {}) {
      const where = options.sameAs ?? (await tempDir());
      const dir = join(where, options.prefix ?? "blobs");
      const store = await openBlobStoreFromUrl(`file:${dir}`);
      return { store, where };
    },
    overwrite: (store, integrity, bytes) => writeFile((store as FsBlobStore).fileOf(integrity), bytes),
    async stray(store) {
      const file = (store as FsBlobStore).fileOf(computeIntegrity(Buffer.from("x")));
      await mkdir(join(file, ".."), { recursive: true });
      await writeFile(join(file, "..", "not-a-blob.txt"), "x");
      await writeFile(`${file}.partial`, "x");
    },
  },
  {
    name: "s3",
    async open(options = {}) {
      const server = await s3();
      const url = options.sameAs ?? (await server.createBucket());
      const location = parseBlobsUrl(url);
      if (location.kind !== "s3") throw new Error("not s3");
      const store = await openBlobStoreFromUrl({
        ...location,
        prefix: options.prefix ?? "",
        credentials: s3Credentials,
        ...(options.pageSize ? { pageSize: options.pageSize } : {}),
      });
      opened.push(store);
      return { store, where: url };
    },
    async overwrite(store, integrity, bytes) {
      const server = await s3();
      const { bucket, key } = placeOf(store as S3BlobStore, integrity);
      await server.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
    },
    async stray(store, where) {
      const server = await s3();
      const bucket = (parseBlobsUrl(where) as { bucket: string }).bucket;
      const key = placeOf(store as S3BlobStore, computeIntegrity(Buffer.from("x"))).key;
      for (const stray of [`${key}.partial`, `${key}/below`, "sha512/zz/not-hex", "elsewhere/file"])
        await server.client.send(new PutObjectCommand({ Bucket: bucket, Key: stray, Body: "x" }));
    },
  },
];

function placeOf(store: S3BlobStore, integrity: string): { bucket: string; key: string } {
  return { bucket: (store as unknown as { bucket: string }).bucket, key: store.keyOf(integrity) };
}

function blob(i: number): { integrity: string; bytes: Buffer } {
  const bytes = Buffer.from(`tarball number ${i}\n`.repeat(1 + (i % 5)));
  return { integrity: computeIntegrity(bytes), bytes };
}

/** `count` blobs put with a few at a time in flight (the server is a single Node process). */
async function putMany(store: BlobStore, from: number, count: number): Promise<string[]> {
  const all = Array.from({ length: count }, (_, i) => blob(from + i));
  for (let i = 0; i < all.length; i += 16) {
    await Promise.all(all.slice(i, i + 16).map((b) => store.put(b.integrity, b.bytes, { durable: false })));
  }
  return all.map((b) => b.integrity);
}

describe.each(backends)("the blob store contract ($name)", (backend) => {
  it("a blob that was never put: read and revision are undefined, delete is harmless, list is empty", async () => {
    const { store } = await backend.open();
    const { integrity } = blob(1);
    expect(await store.read(integrity)).toBeUndefined();
    expect(await store.revision(integrity)).toBeUndefined();
    await store.delete(integrity);
    expect(await store.list()).toEqual([]);
  });

  it("put, then read gives the bytes with the revision that revision() reports; list names it", async () => {
    const { store } = await backend.open();
    const { integrity, bytes } = blob(2);
    await store.put(integrity, bytes);
    const stored = await store.read(integrity);
    expect(stored?.bytes.equals(bytes)).toBe(true);
    expect(stored?.revision).toBe(await store.revision(integrity));
    expect(await store.list()).toEqual([integrity]);
  });

  it("the same bytes put twice: harmless, one blob, the same bytes", async () => {
    const { store } = await backend.open();
    const { integrity, bytes } = blob(3);
    await store.put(integrity, bytes);
    await store.put(integrity, bytes);
    expect((await store.read(integrity))?.bytes.equals(bytes)).toBe(true);
    expect(await store.list()).toEqual([integrity]);
  });

  it("delete removes the blob, and only it", async () => {
    const { store } = await backend.open();
    const [a, b] = [blob(4), blob(5)];
    await store.put(a.integrity, a.bytes);
    await store.put(b.integrity, b.bytes);
    await store.delete(a.integrity);
    expect(await store.read(a.integrity)).toBeUndefined();
    expect(await store.revision(a.integrity)).toBeUndefined();
    expect((await store.read(b.integrity))?.bytes.equals(b.bytes)).toBe(true);
    expect(await store.list()).toEqual([b.integrity]);
  });

  it("list skips what is not a blob of its own", async () => {
    const { store, where } = await backend.open();
    const { integrity, bytes } = blob(6);
    await store.put(integrity, bytes);
    await backend.stray(store, where);
    expect(await store.list()).toEqual([integrity]);
  });

  it("two stores under different prefixes of one place do not see each other's blobs", async () => {
    const first = await backend.open({ prefix: "one/" });
    const second = await backend.open({ prefix: "two/", sameAs: first.where });
    const [a, b] = [blob(7), blob(8)];
    await first.store.put(a.integrity, a.bytes);
    await second.store.put(b.integrity, b.bytes);
    expect(await first.store.list()).toEqual([a.integrity]);
    expect(await second.store.list()).toEqual([b.integrity]);
    expect(await first.store.read(b.integrity)).toBeUndefined();
  });

  it("an overwrite behind the store's back changes the revision; VerifiedBlobs then refuses the bytes", async () => {
    const { store } = await backend.open();
    const { integrity, bytes } = blob(9);
    await store.put(integrity, bytes);
    const verified = new VerifiedBlobs(store, 1024 * 1024);
    const before = await store.revision(integrity);
    const first = await verified.get(integrity);
    expect(first.state).toBe("ok");
    const tampered = Buffer.from(bytes);
    tampered[0] = (tampered[0] ?? 0) ^ 0xff;
    await backend.overwrite(store, integrity, tampered);
    expect(await store.revision(integrity)).not.toBe(before);
    const check = await verified.get(integrity);
    expect(check).toEqual({ state: "corrupt", actual: computeIntegrity(tampered) });
  });

  it("more than 1,000 blobs: list names each once (S3 pages at 1,000 keys)", async () => {
    const { store } = await backend.open();
    const put = await putMany(store, 100, 1_003);
    const listed = await store.list();
    expect(listed).toHaveLength(1_003);
    expect(new Set(listed)).toEqual(new Set(put));
  });

  it("a small page size: many pages, each blob once", async () => {
    const { store } = await backend.open({ pageSize: 7 });
    const put = await putMany(store, 2_000, 30);
    const listed = await store.list();
    expect(listed.sort()).toEqual(put.sort());
  });
});
