import { createHash } from "node:crypto";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { integrityFromHex, integrityHex } from "../../package/integrity.js";
import type { BlobStore, StoredBlob } from "./blob-store.js";

/** Where in which bucket the blobs are, and how many keys one list request asks for. */
export interface S3BlobPlace {
  bucket: string;
  /** Put before every key: "" or ending in "/". */
  prefix: string;
  /** Keys per ListObjectsV2 page (S3's own cap and default is 1,000). */
  pageSize?: number;
}

/**
 * A list that never ends is a server bug, not a registry: past this many pages `list` gives up.
 * At 1,000 keys a page that is 100 million blobs.
 */
const maxListPages = 100_000;

/** The object that says which registry the prefix belongs to (beside sha512/, so never a blob). */
export const claimKey = "hookyard-registry.json";

/**
 * Blobs as objects `<prefix>sha512/<first two hex digits>/<hex>` in an S3-compatible bucket (the
 * fs store's layout, so a copy of one is the other). A PutObject is atomic, so there is no temp
 * area and a crash leaves at most a whole orphan (swept at start). Bytes are returned as stored,
 * unchecked: VerifiedBlobs hashes them against the integrity before any is served.
 */
export class S3BlobStore implements BlobStore {
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly pageSize: number;

  constructor(
    private readonly client: S3Client,
    place: S3BlobPlace,
  ) {
    this.bucket = place.bucket;
    this.prefix = place.prefix;
    this.pageSize = place.pageSize ?? 1_000;
  }

  async put(integrity: string, bytes: Uint8Array): Promise<void> {
    // An S3 put is durable once answered; Content-MD5 has the server refuse bytes damaged on the way.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(integrity),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: "application/octet-stream",
        ContentMD5: createHash("md5").update(bytes).digest("base64"),
      }),
    );
  }

  async read(integrity: string): Promise<StoredBlob | undefined> {
    let answer: GetObjectCommandOutput;
    try {
      answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(integrity) }),
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const body = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { bytes, revision: revisionOf(answer.ETag, answer.LastModified, answer.ContentLength) };
  }

  async revision(integrity: string): Promise<string | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(integrity) }),
      );
      return revisionOf(head.ETag, head.LastModified, head.ContentLength);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(integrity: string): Promise<void> {
    // Deleting a key that is not there succeeds in S3: the same as the fs store's rm --force.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(integrity) }));
  }

  async list(): Promise<string[]> {
    const base = `${this.prefix}sha512/`;
    const found: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < maxListPages; page++) {
      const answer = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: base,
          MaxKeys: this.pageSize,
          ContinuationToken: token,
        }),
      );
      for (const object of answer.Contents ?? []) {
        const integrity = integrityOfKey(object.Key?.slice(base.length) ?? "");
        if (integrity) found.push(integrity);
      }
      if (!answer.IsTruncated) return found;
      token = answer.NextContinuationToken;
      if (!token)
        throw new Error(`the bucket ${this.bucket} said its listing goes on but gave no continuation token`);
    }
    throw new Error(
      `the bucket ${this.bucket} listed more than ${maxListPages} pages under ${base}: giving up`,
    );
  }

  /**
   * Marks the bucket prefix as the tarballs of the registry `registry` (its signing key id), or
   * returns the id of another registry that marked it first: that one's start-up sweep would
   * delete every tarball of this one, and this one's every tarball of that one.
   */
  async claim(registry: string): Promise<string | undefined> {
    const key = `${this.prefix}${claimKey}`;
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const text = (await answer.Body?.transformToString()) ?? "";
      const owner = (JSON.parse(text) as { registry?: unknown }).registry;
      if (typeof owner === "string" && owner !== registry) return owner;
      if (owner === registry) return undefined;
    } catch (error) {
      if (!isMissing(error) && !(error instanceof SyntaxError)) throw error;
    }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: `${JSON.stringify({ registry, note: "the tarballs under this prefix belong to this hookyard registry" })}\n`,
        ContentType: "application/json",
      }),
    );
    return undefined;
  }

  /** Releases the client's sockets. */
  close(): void {
    this.client.destroy();
  }

  /** The object key of a blob; only well-formed sha512 SRI strings name one. */
  keyOf(integrity: string): string {
    const hex = integrityHex(integrity);
    if (!hex) throw new Error(`not a sha512 integrity: ${integrity}`);
    return `${this.prefix}sha512/${hex.slice(0, 2)}/${hex}`;
  }
}

/** `<hh>/<hex>` below `sha512/`: anything else under the prefix is not a blob of ours. */
function integrityOfKey(rest: string): string | undefined {
  const [fanout, hex, ...more] = rest.split("/");
  if (more.length > 0 || !fanout || !hex?.startsWith(fanout) || fanout.length !== 2) return undefined;
  return integrityFromHex(hex);
}

/**
 * Which state of the object: an overwrite gets a new ETag when the bytes differ (and a new
 * LastModified in any case), so VerifiedBlobs hashes it again before serving it.
 */
function revisionOf(etag: string | undefined, modified: Date | undefined, size: number | undefined): string {
  return `${etag ?? ""}:${modified?.getTime() ?? ""}:${size ?? ""}`;
}

/** NoSuchKey from a GET, a bare 404 from a HEAD (which has no body to name the error). */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
}
