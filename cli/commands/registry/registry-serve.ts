import { resolve } from "node:path";
import type { Registry } from "../../../registry/app.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes, registryFailure } from "../../errors.js";
import { portOption } from "../../options/port.js";
import { blobsOption, databaseOption } from "../../options/registry-storage.js";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export default {
  name: "serve",
  summary: "Run a registry: the HTTP API, an sqlite database and the tarballs, all in --data",
  options: [
    {
      flags: "--data <dir>",
      description:
        "the registry's data directory (created if missing); with --database postgres://… it holds only the tarballs, shared by every process; with --blobs s3://… as well, nothing shared",
      required: true,
    },
    {
      flags: "--database <url>",
      description:
        "the metadata store instead of --data's sqlite file: sqlite:<path> or postgres://user:password@host:port/database (env HOOKYARD_REGISTRY_DATABASE)",
    },
    {
      flags: "--blobs <url>",
      description:
        "the tarballs instead of --data's blobs/: file:<dir> or s3://bucket[/prefix]?endpoint=http://host:port&region=… (env HOOKYARD_REGISTRY_BLOBS; credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE, never in the URL)",
    },
    { flags: "--port <port>", description: "TCP port (0 picks a free one)", default: "4873" },
    { flags: "--host <address>", description: "address to listen on", default: "127.0.0.1" },
    {
      flags: "--trust-proxy <addresses>",
      description:
        "behind a reverse proxy: the proxies (comma-separated addresses) whose X-Forwarded-For to believe",
    },
    {
      flags: "--log-level <level>",
      description: "JSON logs on stdout from this level",
      default: "info",
      choices: logLevels,
    },
  ],
  help: [
    "The first start on an empty data directory makes an admin token and prints it once, on stderr.",
    "Logs are JSON lines on stdout. SIGINT or SIGTERM stops it after the requests in flight.",
    "Listening on anything but 127.0.0.1 exposes the registry to your network: put it behind TLS.",
    "One process serves an embedded (sqlite) registry: a second on the same --data is refused.",
    "On PostgreSQL any number of processes serve one registry: the same --database, and one --data",
    "directory they all mount for the tarballs; the signing key is kept in the database.",
    "With --database postgres://… --blobs s3://… every process shares only the database and the bucket:",
    "its --data holds nothing shared (a bucket is checked at start; an unusable one is refused).",
  ].join("\n"),
  async run(context, _args, options) {
    const port = portOption(options.port, 0);
    const host = String(options.host);
    const dataDir = resolve(context.cwd, String(options.data));
    const database = databaseOption(options.database, context);
    const blobs = blobsOption(options.blobs, context);
    const { buildRegistry } = await import("../../../registry/app.js");
    const { RegistryError } = await import("../../../registry/errors.js");
    const { describeDatabase } = await import("../../../registry/database-url.js");
    const { describeBlobs } = await import("../../../registry/blobs/blob-url.js");
    let app: Registry;
    try {
      app = await buildRegistry({
        dataDir,
        ...(database ? { database } : {}),
        ...(blobs ? { blobs } : {}),
        logger: { level: String(options.logLevel), stream: context.stdout },
        trustProxy: typeof options.trustProxy === "string" ? options.trustProxy : false,
      });
    } catch (error) {
      throw error instanceof RegistryError ? registryFailure(error) : error;
    }
    const { initialAdminToken, dataDir: layout } = app.registry;
    // Made with the data dir, before the port is tried: shown even when listening fails, since a
    // later start on that data dir makes none.
    if (initialAdminToken) {
      context.stderr.write(
        `admin token (shown this once; store it now): ${initialAdminToken}\n` +
          `  make more with: hookyard registry token create --owner <name> ${database ? "--database <url>" : "--data <dir>"}\n`,
      );
    }
    let address: string;
    try {
      address = await app.listen({ port, host });
    } catch (error) {
      await app.close();
      throw listenError(error as NodeJS.ErrnoException, host, port);
    }
    const where =
      (database ? `, database: ${describeDatabase(database)}` : "") +
      (blobs ? `, blobs: ${describeBlobs(blobs)}` : "");
    context.stderr.write(`hookyard registry listening on ${address} (data: ${layout.root}${where})\n`);
    const signal = await new Promise<NodeJS.Signals>((done) => {
      const stop = (received: NodeJS.Signals) => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        done(received);
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    context.stderr.write(`${signal}: finishing requests in flight, then stopping\n`);
    await app.close();
    context.stderr.write("hookyard registry stopped\n");
    return exitCodes.ok;
  },
} satisfies Command;

function listenError(error: NodeJS.ErrnoException, host: string, port: number): CliError {
  if (error.code === "EADDRINUSE") {
    return new CliError(
      "CLI_ERR_PORT_IN_USE",
      `${host}:${port} is already in use (stop what is listening there, or pass another --port)`,
      exitCodes.error,
      { cause: error },
    );
  }
  return new CliError(
    "CLI_ERR_LISTEN",
    `cannot listen on ${host}:${port}: ${error.message} (pass a --host this machine has and a --port you may use)`,
    exitCodes.error,
    { cause: error },
  );
}
