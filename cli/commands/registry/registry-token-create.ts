import { resolve } from "node:path";
import type { IssuedToken } from "../../../registry/access/tokens.js";
import type { TokenScope } from "../../../registry/db/schema.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes, registryFailure } from "../../errors.js";
import { databaseOption } from "../../options/registry-storage.js";
import { tokenScopeChoices } from "../../options/token-scopes.js";
import { table } from "../../ui/table.js";

export default {
  name: "create",
  summary: "Make a registry token for an owner (the owner is created if new); the token is printed once",
  options: [
    { flags: "--owner <name>", description: "who the token acts as", required: true },
    { flags: "--data <dir>", description: "the registry's data directory (an embedded registry)" },
    {
      flags: "--database <url>",
      description:
        "the registry's database instead: postgres://… or sqlite:<path>, as serve's (env HOOKYARD_REGISTRY_DATABASE)",
    },
    {
      flags: "--scope <scope>",
      description: "what it may do",
      default: "publish",
      choices: tokenScopeChoices,
    },
    { flags: "--expires <duration>", description: "lifetime: 30d, 12h, 90m, or never", default: "never" },
    { flags: "--description <text>", description: "a note shown when tokens are listed" },
    { flags: "--json", description: "print JSON instead of text" },
  ],
  help: [
    "Works on the data directory (or the database) directly, so it runs beside a serving registry.",
    "read: authenticates, nothing more. publish: publish, yank, deprecate and manage owners of",
    "your own packages. admin: anything, including advisories and other owners' tokens.",
  ].join("\n"),
  async run(context, _args, options) {
    const { ownerNamePattern } = await import("../../../package/names.js");
    const { issueToken, parseDuration } = await import("../../../registry/access/tokens.js");
    const { openRegistryStore } = await import("../../../registry/db/open-store.js");
    const { localActor } = await import("../../../registry/store.js");
    const { RegistryError } = await import("../../../registry/errors.js");
    const owner = String(options.owner);
    if (!ownerNamePattern.test(owner)) {
      throw new CliError(
        "CLI_ERR_USAGE",
        `--owner ${owner} is not an owner name (lower case a-z 0-9 . _ -, at most 64 characters)`,
        exitCodes.usage,
      );
    }
    const expiresInMs = parseDuration(String(options.expires));
    if (expiresInMs === undefined) {
      throw new CliError(
        "CLI_ERR_USAGE",
        `--expires ${options.expires} is not a duration (write 30d, 12h, 90m or never)`,
        exitCodes.usage,
      );
    }
    const database = databaseOption(options.database, context);
    if (database === undefined && typeof options.data !== "string") {
      throw new CliError(
        "CLI_ERR_USAGE",
        "pass the registry: --data <dir> for an embedded one, or --database <url>",
        exitCodes.usage,
      );
    }
    let issued: IssuedToken;
    try {
      const store = database
        ? await (await import("../../../registry/database-url.js")).openStoreFromUrl(database)
        : await openRegistryStore(resolve(context.cwd, String(options.data)));
      try {
        issued = await issueToken(store, {
          owner,
          scope: options.scope as TokenScope,
          expiresInMs,
          description: typeof options.description === "string" ? options.description : null,
          now: new Date(),
          actor: localActor,
        });
      } finally {
        await store.close();
      }
    } catch (error) {
      throw error instanceof RegistryError ? registryFailure(error) : error;
    }
    const { token, record } = issued;
    if (options.json) {
      context.stdout.write(`${JSON.stringify({ token, ...record }, null, 2)}\n`);
      return exitCodes.ok;
    }
    context.stdout.write(
      table([
        ["token", token],
        ["id", record.id],
        ["owner", record.owner],
        ["scope", record.scope],
        ["expires", record.expiresAt ?? "never"],
      ]),
    );
    context.stdout.write("Store the token now: it is not shown again.\n");
    return exitCodes.ok;
  },
} satisfies Command;
