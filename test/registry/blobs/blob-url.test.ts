import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  blobsUrlOf,
  describeBlobs,
  openBlobStoreFromUrl,
  parseBlobsUrl,
} from "../../../registry/blobs/blob-url.js";
import { tempDir } from "../../helpers/temp.js";

describe("parseBlobsUrl", () => {
  it("reads a bucket, a prefix, an endpoint and a region; path-style when there is an endpoint", () => {
    expect(parseBlobsUrl("s3://hooks/registry/v1?endpoint=http://127.0.0.1:9000&region=eu-west-3")).toEqual({
      kind: "s3",
      bucket: "hooks",
      prefix: "registry/v1/",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-3",
      forcePathStyle: true,
    });
    expect(parseBlobsUrl("s3://hooks")).toEqual({
      kind: "s3",
      bucket: "hooks",
      prefix: "",
      forcePathStyle: false,
    });
    expect(parseBlobsUrl("s3://hooks/?endpoint=https://s3.example.test&forcePathStyle=false")).toMatchObject({
      prefix: "",
      forcePathStyle: false,
    });
    expect(parseBlobsUrl("s3://hooks/a%20b/")).toMatchObject({ prefix: "a b/" });
  });

  it("reads file:<dir> as an absolute directory", () => {
    expect(parseBlobsUrl("file:///srv/blobs")).toEqual({ kind: "file", dir: "/srv/blobs" });
    expect(parseBlobsUrl("file:rel/blobs")).toEqual({ kind: "file", dir: join(process.cwd(), "rel/blobs") });
  });

  it("gives back the URL it read (no credentials to give back)", () => {
    for (const url of [
      "s3://hooks/registry/?endpoint=http%3A%2F%2F127.0.0.1%3A9000&region=us-east-1",
      "s3://hooks/",
      "s3://hooks/p/?endpoint=https%3A%2F%2Fs3.example.test&forcePathStyle=false",
    ]) {
      expect(blobsUrlOf(parseBlobsUrl(url))).toBe(url);
    }
  });

  it.each([
    ["s3://hooks//double", "empty folder"],
    ["s3://hooks/%E0%A4%A", "not valid percent-encoding"],
    ["s3://hooks#frag", "#fragment"],
    ["s3://ab", "a bucket S3 does not allow"],
    ["s3://a..b", "a bucket S3 does not allow"],
    ["s3://hooks?region=", "empty region"],
    ["s3://hooks?endpoint=not a url", "not a URL"],
    ["s3://hooks?endpoint=http://user:pw@127.0.0.1:9000", "credentials in its endpoint"],
    ["s3://", "names no bucket"],
  ])("refuses %s (%s) with REG_ERR_BLOBS_URL", (url, problem) => {
    expect(() => parseBlobsUrl(url)).toThrowError(expect.objectContaining({ code: "REG_ERR_BLOBS_URL" }));
    expect(() => parseBlobsUrl(url)).toThrowError(problem);
  });

  it("never shows a secret: not a user:password, not an unknown parameter's value", () => {
    const secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCY";
    for (const url of [
      `s3://AKIA:${secret}@hooks/p`,
      `s3://AKIA:${secret}@`,
      `s3://hooks?secret=${encodeURIComponent(secret)}`,
      `s3://hooks?endpoint=http://127.0.0.1:1&aws_secret_access_key=${secret}`,
    ]) {
      let message = "";
      try {
        parseBlobsUrl(url);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/REG_ERR_BLOBS_URL|blobs URL/);
      expect(message).not.toContain(secret);
      expect(message).not.toContain(encodeURIComponent(secret));
      expect(describeBlobs(url)).not.toContain(secret);
    }
  });
});

describe("openBlobStoreFromUrl", () => {
  it("a file: directory that cannot be made is REG_ERR_BLOBS_UNREACHABLE, not a hang", async () => {
    for (const dir of ["/proc/hookyard-nope/blobs", join(await tempDir(), "\0bad")]) {
      const failure = await openBlobStoreFromUrl(`file:${dir}`).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "REG_ERR_BLOBS_UNREACHABLE" });
    }
  });
});
