import { join, resolve } from "node:path";
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { makeDirectory } from "../data/data-dir.js";
import { RegistryError } from "../errors.js";
import type { BlobStore } from "./blob-store.js";
import { FsBlobStore } from "./fs-blob-store.js";
import { S3BlobStore } from "./s3-blob-store.js";

/** AWS-style keys, for a caller that has them in hand (tests, tools); never read from a URL. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Where the tarballs live: `file:<dir>` or `s3://bucket[/prefix]?endpoint=…&region=…`. */
export type BlobsLocation =
  | { kind: "file"; dir: string }
  | {
      kind: "s3";
      bucket: string;
      /** "" or ending in "/": put before every key. */
      prefix: string;
      /** An S3-compatible server's URL (http: or https:); AWS's own when absent. */
      endpoint?: string;
      region?: string;
      /** bucket in the path (`http://host/bucket/key`) rather than in the host name. */
      forcePathStyle: boolean;
      /** Without them, the SDK's default chain (AWS_ACCESS_KEY_ID…, AWS_PROFILE). */
      credentials?: S3Credentials;
      /** Keys per list request (tests: pagination with fewer objects). */
      pageSize?: number;
    };

/** How long the start-up check of a bucket may take before it counts as unreachable. */
const startCheckMs = 10_000;

const s3Parameters = new Set(["endpoint", "region", "forcePathStyle"]);

const remedy =
  "(pass file:<dir> or s3://bucket[/prefix]?endpoint=…&region=… to --blobs or HOOKYARD_REGISTRY_BLOBS)";

/**
 * A blobs URL as messages and logs show it: no user or password, and the value of any query
 * parameter hookyard does not know left out (`***`): it might be a secret put there by mistake.
 */
export function describeBlobs(text: string): string {
  if (text.startsWith("file:")) return text;
  try {
    const parsed = new URL(text);
    parsed.username = "";
    parsed.password = "";
    for (const key of [...parsed.searchParams.keys()])
      if (!s3Parameters.has(key)) parsed.searchParams.set(key, "***");
    return parsed.toString();
  } catch {
    // scheme://user:password@bucket…: everything up to the last @ is left out.
    return text.replace(/^([^:/]*:\/\/)(.*)@/, (_all, head: string) => `${head}***@`);
  }
}

/** Reads a --blobs / HOOKYARD_REGISTRY_BLOBS value; REG_ERR_BLOBS_URL says what is wrong with a bad one. */
export function parseBlobsUrl(text: string): BlobsLocation {
  const refuse = (problem: string) =>
    new RegistryError(
      "REG_ERR_BLOBS_URL",
      `the blobs URL ${JSON.stringify(describeBlobs(text))} ${problem} ${remedy}`,
    );
  if (text.startsWith("file:")) {
    const dir = text.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (dir === "") throw refuse("names no directory");
    return { kind: "file", dir: resolve(dir) };
  }
  if (!text.startsWith("s3://")) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
    throw refuse(scheme ? `has a scheme hookyard does not know (${scheme}:)` : "has no scheme");
  }
  if (/^s3:\/\/[^/?#]*@/.test(text)) {
    throw refuse(
      "carries credentials: keep them out of the URL and set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) instead",
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw refuse("is not a valid URL");
  }
  const bucket = parsed.hostname;
  if (bucket === "") throw refuse("names no bucket");
  if (parsed.port !== "") throw refuse("has a port: the server's address goes in ?endpoint=");
  // S3's rules for a bucket name, so that a typo fails here rather than as a server's 400.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) {
    throw refuse("names a bucket S3 does not allow (3 to 63 lower-case letters, digits, dots and hyphens)");
  }
  if (parsed.hash !== "") throw refuse("has a #fragment");
  for (const key of parsed.searchParams.keys()) {
    if (!s3Parameters.has(key)) throw refuse(`has a parameter hookyard does not know (${key})`);
  }
  let prefix: string;
  try {
    prefix = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  } catch {
    throw refuse("has a prefix that is not valid percent-encoding");
  }
  if (prefix !== "" && !prefix.endsWith("/")) prefix += "/";
  if (prefix.split("/").some((part, i, all) => part === "" && i < all.length - 1)) {
    throw refuse("has an empty folder in its prefix (//)");
  }
  const endpoint = parsed.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined) {
    let server: URL;
    try {
      server = new URL(endpoint);
    } catch {
      throw refuse("has an endpoint that is not a URL");
    }
    if (server.protocol !== "http:" && server.protocol !== "https:")
      throw refuse("has an endpoint that is not http: or https:");
    if (server.username || server.password) throw refuse("carries credentials in its endpoint");
  }
  const region = parsed.searchParams.get("region") ?? undefined;
  if (region === "") throw refuse("has an empty region");
  const pathStyle = parsed.searchParams.get("forcePathStyle");
  if (pathStyle !== null && pathStyle !== "true" && pathStyle !== "false")
    throw refuse("has forcePathStyle other than true or false");
  // A local server has no DNS name per bucket: the bucket goes in the path unless told otherwise.
  const forcePathStyle = pathStyle === null ? endpoint !== undefined : pathStyle === "true";
  return {
    kind: "s3",
    bucket,
    prefix,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(region !== undefined ? { region } : {}),
    forcePathStyle,
  };
}

/** The URL a location was read from (credentials never included). */
export function blobsUrlOf(location: BlobsLocation): string {
  if (location.kind === "file") return `file:${location.dir}`;
  const query = new URLSearchParams();
  if (location.endpoint) query.set("endpoint", location.endpoint);
  if (location.region) query.set("region", location.region);
  if (location.forcePathStyle !== (location.endpoint !== undefined))
    query.set("forcePathStyle", String(location.forcePathStyle));
  const search = query.size > 0 ? `?${query}` : "";
  return `s3://${location.bucket}/${location.prefix.split("/").map(encodeURIComponent).join("/")}${search}`;
}

/**
 * The blob store at a blobs URL, checked: a file store's folder is made, an S3 bucket is asked for
 * (HeadBucket, within 10 s), so that a wrong endpoint, a missing bucket or refused credentials
 * fail at start with a code (REG_ERR_BLOBS_URL / _UNREACHABLE / _AUTH), never on a download. For
 * `registry serve --blobs` and for tools that move a registry's blobs (a migration).
 * `tmpDir`: where a file store writes before renaming into place (on its file system; default
 * `<dir>/tmp`).
 */
export async function openBlobStoreFromUrl(
  url: string | BlobsLocation,
  options: { tmpDir?: string } = {},
): Promise<BlobStore> {
  const location = typeof url === "string" ? parseBlobsUrl(url) : url;
  if (location.kind === "file")
    return openFileStore(location.dir, options.tmpDir ?? join(location.dir, "tmp"));
  const client = new S3Client({
    // A local server does not care which region is named; AWS's own needs the bucket's.
    region: location.region ?? (location.endpoint ? "us-east-1" : undefined),
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    forcePathStyle: location.forcePathStyle,
    ...(location.credentials ? { credentials: location.credentials } : {}),
    // Every request is bounded: a server that stops answering fails a download, never hangs it.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    maxAttempts: 3,
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: location.bucket }), {
      abortSignal: AbortSignal.timeout(startCheckMs),
    });
  } catch (error) {
    client.destroy();
    throw bucketError(location, error);
  }
  return new S3BlobStore(client, {
    bucket: location.bucket,
    prefix: location.prefix,
    ...(location.pageSize ? { pageSize: location.pageSize } : {}),
  });
}

async function openFileStore(dir: string, tmpDir: string): Promise<FsBlobStore> {
  try {
    await makeDirectory(dir);
    await makeDirectory(tmpDir);
  } catch (error) {
    throw new RegistryError(
      "REG_ERR_BLOBS_UNREACHABLE",
      `cannot use ${dir} for the registry's tarballs: ${(error as Error).message} (pass a directory you may write to)`,
      { cause: error },
    );
  }
  return new FsBlobStore(dir, tmpDir);
}

/** What the start-up HeadBucket's failure means to the operator. */
function bucketError(location: Extract<BlobsLocation, { kind: "s3" }>, error: unknown): RegistryError {
  const { name, message, code, $metadata } = error as {
    name?: string;
    message?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const where = `the bucket ${location.bucket}${location.endpoint ? ` at ${location.endpoint}` : ""}`;
  const status = $metadata?.httpStatusCode;
  if (name === "CredentialsProviderError") {
    return new RegistryError(
      "REG_ERR_BLOBS_AUTH",
      `no credentials for ${where}: ${message} (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)`,
      { cause: error },
    );
  }
  if (status === 401 || status === 403) {
    return new RegistryError(
      "REG_ERR_BLOBS_AUTH",
      `${where} refused the credentials (HTTP ${status}${namedError(name)}) (check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE, and that they may read and write the bucket)`,
      { cause: error },
    );
  }
  if (status === 404) {
    return new RegistryError(
      "REG_ERR_BLOBS_UNREACHABLE",
      `${where} does not exist (create it, or pass the right bucket and endpoint)`,
      { cause: error },
    );
  }
  if (/region is missing/i.test(message ?? "")) {
    return new RegistryError(
      "REG_ERR_BLOBS_URL",
      `the blobs URL ${JSON.stringify(blobsUrlOf(location))} names no region (add ?region=… or set AWS_REGION)`,
      { cause: error },
    );
  }
  const why =
    name === "TimeoutError" || name === "AbortError"
      ? `no answer within ${startCheckMs / 1000} s`
      : status
        ? `HTTP ${status}${namedError(name)}`
        : (code ?? message ?? String(error));
  return new RegistryError(
    "REG_ERR_BLOBS_UNREACHABLE",
    `cannot reach ${where}: ${why} (check the endpoint and region, and that the server is up)`,
    { cause: error },
  );
}

/** The S3 error's name when it says more than the status (a HEAD has no body to name one). */
function namedError(name: string | undefined): string {
  return name && !["Unknown", "Forbidden", "NotFound", "Error"].includes(name) ? `, ${name}` : "";
}
