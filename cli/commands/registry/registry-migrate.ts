import { resolve } from "node:path";
import type { MigrationProgress, MigrationSummary } from "../../../registry/migrate/migrate.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes, registryFailure } from "../../errors.js";
import { databaseOption } from "../../options/registry-storage.js";
import { table } from "../../ui/table.js";

export default {
  name: "migrate",
  summary: "Move an embedded registry (sqlite, blobs, signing key) to PostgreSQL or another sqlite file",
  options: [
    {
      flags: "--from <data-dir>",
      description: "the embedded registry's data directory (not being served)",
      required: true,
    },
    {
      flags: "--to-database <url>",
      description: "the target: postgres://user:password@host:port/database or sqlite:<path>, empty",
      required: true,
    },
    {
      flags: "--to-blobs <url>",
      description:
        "where the tarballs go: file:<dir> (the blobs/ folder of the --data every serve process uses) or s3://bucket[/prefix]?endpoint=…&region=… (as for serve --blobs); needed for PostgreSQL, for sqlite the blobs/ beside the file",
    },
    { flags: "--json", description: "print the summary as JSON" },
  ],
  help: [
    "Copies every row as it is (ids, times, token hashes, signatures), the signing key (into the",
    "database on PostgreSQL, keys/ beside the file on sqlite) and every tarball, each checked against",
    "its integrity before and after it is written; then compares every table's row count.",
    "The target must be empty. It records its progress first: after a crash, run the same command",
    "again and it continues. Stop `registry serve` on --from first; it is refused while served.",
    "Then: hookyard registry serve --data <dir> --database <url>, where <dir>/blobs is --to-blobs.",
  ].join("\n"),
  async run(context, _args, options) {
    const { migrateRegistry } = await import("../../../registry/migrate/migrate.js");
    const { RegistryError } = await import("../../../registry/errors.js");
    const from = resolve(context.cwd, String(options.from));
    const toDatabase = databaseOption(options.toDatabase, context) as string;
    const blobsText = typeof options.toBlobs === "string" ? options.toBlobs : undefined;
    const toBlobs = blobsText?.startsWith("file:")
      ? `file:${resolve(context.cwd, blobsText.slice("file:".length).replace(/^\/\/(?=\/)/, ""))}`
      : blobsText;
    if (toBlobs === "file:" || blobsText === "") {
      throw new CliError("CLI_ERR_USAGE", "--to-blobs names no directory (pass file:<dir>)", exitCodes.usage);
    }
    let summary: MigrationSummary;
    try {
      summary = await migrateRegistry({
        from,
        toDatabase,
        ...(toBlobs ? { toBlobs } : {}),
        onProgress: progressPrinter(context.stderr),
      });
    } catch (error) {
      throw error instanceof RegistryError ? registryFailure(error) : error;
    }
    if (options.json) {
      context.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return exitCodes.ok;
    }
    const { blobCount } = summary;
    context.stdout.write(
      table([
        ["from", summary.source],
        ["database", summary.database],
        ["blobs", summary.blobs],
        ["signing key", summary.signingKey ?? "none"],
        [
          "tarballs",
          `${blobCount.total} verified (${blobCount.copied} copied, ${blobCount.present} already there)`,
        ],
        ...summary.tables.map((t): [string, string] => [t.name, `${t.rows} rows`]),
        ["search index", `${summary.searchRows} rows`],
      ]),
    );
    context.stdout.write(
      `${summary.resumed ? "Continued and finished" : "Finished"}: every row count matches. Serve it: hookyard registry serve --data <dir> --database <url> (<dir>/blobs being --to-blobs).\n`,
    );
    return exitCodes.ok;
  },
} satisfies Command;

/** Progress lines on stderr: each table's batches, and the tarballs every 100 and at the end. */
function progressPrinter(stderr: { write(text: string): unknown }): (progress: MigrationProgress) => void {
  return (progress) => {
    if (progress.phase === "blobs") {
      if (progress.done % 100 === 0 || progress.done === progress.total)
        stderr.write(`tarballs ${progress.done}/${progress.total}\n`);
    } else if (progress.phase === "table") {
      stderr.write(
        `table ${progress.index}/${progress.tables} ${progress.table}: ${progress.copied}/${progress.total} rows\n`,
      );
    } else {
      stderr.write(`search index: ${progress.rows} rows\n`);
    }
  };
}
