import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll } from "vitest";
import type { S3Credentials } from "../../registry/blobs/blob-url.js";
import { repoRoot } from "./cli.js";
import { processWaitMs } from "./timeouts.js";

/**
 * The registry's S3 tests run against s3rver (an npm devDependency): nothing S3-compatible that
 * is more real installs here offline (Debian has only radosgw, which needs a Ceph cluster; MinIO,
 * SeaweedFS, Garage and moto are not packaged). It checks the access key id of every request
 * (not a SigV4 signature, nor Content-MD5: it does not implement those checks), caps a list
 * page at 1,000 keys and pages with continuation tokens as S3 does. It makes those tokens with DES, which Node's OpenSSL 3 has only in its legacy
 * provider: hence a process of its own, started with --openssl-legacy-provider.
 */
export const s3Credentials: S3Credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** What a `hookyard registry serve` process needs in its environment to reach the test server. */
export const s3Env: Record<string, string> = {
  AWS_ACCESS_KEY_ID: s3Credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
  // No instance-metadata lookups (they would leave the machine) and no ~/.aws files.
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_CONFIG_FILE: "/dev/null",
  AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
};

/** A throwaway S3-compatible server for one test file. */
export interface TestS3 {
  endpoint: string;
  /** A fresh, empty bucket; its s3:// URL (with `prefix`, if given). */
  createBucket(prefix?: string): Promise<string>;
  /** An SDK client on the server, as an operator (or an attacker with the keys) would use it. */
  client: S3Client;
  stop(): Promise<void>;
}

const serverScript = `
  import { createRequire } from "node:module";
  const require = createRequire(${JSON.stringify(join(repoRoot, "package.json"))});
  const S3rver = require("s3rver");
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: process.argv[1] });
  const { port } = await server.run();
  process.stdout.write("listening on " + port + "\\n");
  // Gone with the test process that started it, however that one ended.
  process.stdin.on("end", () => process.exit(0)).resume();
`;

export async function startS3(): Promise<TestS3> {
  const dir = await mkdtemp(join(tmpdir(), "hookyard-s3-"));
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", "--input-type=module", "-e", serverScript, join(dir, "data")],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start: ${output}`)), processWaitMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (\d+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(Number(found));
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited (${code}) before listening: ${output}`));
    });
  }).catch(async (error) => {
    child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: s3Credentials,
  });
  let made = 0;
  return {
    endpoint,
    client,
    async createBucket(prefix = "") {
      const bucket = `registry-${process.pid}-${++made}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`;
    },
    async stop() {
      client.destroy();
      await stopChild(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.on("exit", done));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** One server for the calling test file, started at first use and stopped after the file. */
export function fileS3(): () => Promise<TestS3> {
  let started: Promise<TestS3> | undefined;
  afterAll(async () => {
    if (started) await (await started.catch(() => undefined))?.stop();
  });
  return () => {
    started ??= startS3();
    return started;
  };
}
