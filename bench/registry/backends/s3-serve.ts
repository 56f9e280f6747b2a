/**
 * The S3-compatible server the bench's PostgreSQL + S3 rows keep their tarballs in: s3rver, the
 * emulator the registry's S3 tests use (test/helpers/s3.ts says why nothing more real installs
 * here), storing objects in `--dir`, with the bench's bucket made at start. s3rver makes its list
 * continuation tokens with DES, which Node's OpenSSL 3 has only in its legacy provider:
 *
 *   node --openssl-legacy-provider dist/bench/registry/backends/s3-serve.js --port <p> --dir <d> --bucket <b>
 */
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { port: { type: "string" }, dir: { type: "string" }, bucket: { type: "string" } },
  strict: true,
});
if (!values.port || !values.dir || !values.bucket) {
  console.error("usage: s3-serve.js --port <port> --dir <dir> --bucket <name>");
  process.exit(2);
}

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<unknown>;
}
// s3rver ships no types; it is a devDependency, like the rest of the bench's tools.
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: object) => S3rverInstance;
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(values.port),
  silent: true,
  directory: values.dir,
  configureBuckets: [{ name: values.bucket }],
});
await server.run();
process.once("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
