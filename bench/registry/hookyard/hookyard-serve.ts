/**
 * The hookyard registry process the bench measures: what `hookyard registry serve` runs, with two
 * settings the command does not offer. Logs at warn, as Verdaccio's config has it, so neither
 * server writes a line per request; and a publish rate limit high enough for a thousand publishes
 * in a few seconds from one token (the limiter still runs on every publish). `--database` and
 * `--blobs` are the command's own (PostgreSQL, S3).
 *
 *   node --no-node-snapshot dist/bench/registry/hookyard-serve.js --data <dir> --port <port>
 *     [--database postgres://…] [--blobs s3://…]
 */
import { parseArgs } from "node:util";
import { buildRegistry } from "../../../registry/app.js";

const { values } = parseArgs({
  options: {
    data: { type: "string" },
    port: { type: "string" },
    database: { type: "string" },
    blobs: { type: "string" },
  },
  strict: true,
});
if (!values.data || !values.port) {
  console.error("usage: hookyard-serve.js --data <dir> --port <port> [--database <url>] [--blobs <url>]");
  process.exit(2);
}

const app = await buildRegistry({
  dataDir: values.data,
  ...(values.database ? { database: values.database } : {}),
  ...(values.blobs ? { blobs: values.blobs } : {}),
  logger: { level: "warn" },
  rateLimit: { publish: { max: 1_000_000, timeWindowMs: 60_000 } },
});
await app.listen({ host: "127.0.0.1", port: Number(values.port) });

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
