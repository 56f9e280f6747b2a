import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Cleanup } from "../cleanup.js";
import { type RunningServer, startServer } from "../server-process.js";

/** s3rver's default keys: it checks the access key id of every request (not the signature). */
export const s3Env: Record<string, string> = {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  // No instance-metadata lookups (they would leave the machine) and no ~/.aws files.
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_CONFIG_FILE: "/dev/null",
  AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
};

export interface BenchS3 {
  server: RunningServer;
  /** Where s3rver keeps its buckets, one directory each. */
  objectsDir: string;
  bucket: string;
  /** The blobs URL of the bucket, as `registry serve --blobs` takes it. */
  blobsUrl: string;
}

/** s3rver (s3-serve.ts) in a process of its own, one bucket made, storing under `root`. */
export async function startS3(root: string, port: number, cleanup: Cleanup): Promise<BenchS3> {
  const script = fileURLToPath(new URL("./s3-serve.js", import.meta.url));
  const bucket = "hookyard-bench";
  const server = await startServer(
    {
      label: "s3rver",
      command: process.execPath,
      args: [
        "--openssl-legacy-provider",
        script,
        "--port",
        String(port),
        "--dir",
        join(root, "objects"),
        "--bucket",
        bucket,
      ],
      cwd: dirname(script),
      port,
      readyPath: "/",
      // An anonymous list of buckets is refused (403): any answer means it is serving.
      readyStatus: (status) => status < 500,
    },
    cleanup,
  );
  const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
  return {
    server,
    objectsDir: join(root, "objects"),
    bucket,
    blobsUrl: `s3://${bucket}?endpoint=${endpoint}&region=us-east-1`,
  };
}
