import type { CliContext, Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { registryOption } from "../../options/registry.js";

export default {
  name: "install",
  summary: "Install a community hook from the registry (no name: exactly what hookyard.lock says)",
  args: [{ name: "[package]", description: "name, name@version or name@range (^1.2.0, ~1.2)" }],
  options: [
    { flags: "--sandbox", description: "run it sandboxed with only the granted capabilities (the default)" },
    {
      flags: "--trust",
      description: "run it in-process with every right hookyard has: only for code you have read",
    },
    {
      flags: "--grant <grant>",
      description:
        "grant a requested capability: fs.read:<path>, fs.write:<path>, net:<host>[:<port>], process:<cmd>, env:<NAME>, rewrite:<point>.<field>, redact:<point>.<field>, rewrite (repeat for more)",
      repeatable: true,
    },
    { flags: "--yes", description: "ask nothing: grant only what --grant names" },
    {
      flags: "--accept-key <keyId>",
      description:
        "re-pin the registry's signing key to this key id (after the registry's operator changed it)",
    },
    registryOption,
    { flags: "--json", description: "print what was installed as JSON" },
  ],
  help: [
    "A community hook runs sandboxed unless --trust is given. It asks for capabilities (its ceiling);",
    "you grant a subset: with --grant, or by answering the prompt on a terminal. --yes, or no terminal,",
    "grants nothing beyond --grant. The registry's signing key is pinned in hookyard.json on first use;",
    "a version signed by another key is refused (exit 3) until you pass --accept-key.",
    "",
    "With no package, installs what hookyard.lock lists, from the store when the bytes are there (works",
    "offline), and refuses (exit 3, nothing changed) any integrity or signature mismatch.",
  ].join("\n"),
  async run(context, args, options) {
    const grants = (options.grant as string[] | undefined) ?? [];
    if (options.sandbox && options.trust) {
      throw new CliError(
        "CLI_ERR_USAGE",
        "--sandbox and --trust exclude each other: pick one",
        exitCodes.usage,
      );
    }
    if (options.trust && grants.length > 0) {
      throw new CliError(
        "CLI_ERR_USAGE",
        "--grant has no meaning with --trust: a trusted hook runs in-process with every right",
        exitCodes.usage,
      );
    }
    const spec = args[0];
    if (spec === undefined) {
      if (options.trust || options.sandbox || grants.length > 0 || options.acceptKey) {
        throw new CliError(
          "CLI_ERR_USAGE",
          "--trust, --sandbox, --grant and --accept-key need a package name; with no name, install follows hookyard.lock",
          exitCodes.usage,
        );
      }
      return fromLock(context, options);
    }
    const { install } = await import("../../../client/workspace-changes.js");
    const { clientContext } = await import("../../client-context.js");
    const { grantLine } = await import("../../ui/capability-lines.js");
    const result = await install(clientContext(context), spec, {
      registry: options.registry,
      trust: Boolean(options.trust),
      grants,
      yes: Boolean(options.yes),
      acceptKey: typeof options.acceptKey === "string" ? options.acceptKey : undefined,
    });
    if (options.json) {
      context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return exitCodes.ok;
    }
    const how = result.trust === "trusted" ? "trusted: runs in-process" : "sandboxed";
    context.stdout.write(`installed ${result.name}@${result.version} (${how}) from ${result.registry}\n`);
    if (result.trust === "sandboxed") {
      for (const grant of result.grants) context.stdout.write(`  granted:     ${grantLine(grant)}\n`);
      for (const grant of result.declined) context.stdout.write(`  not granted: ${grantLine(grant)}\n`);
      if (result.grants.length === 0 && result.declined.length === 0) {
        context.stdout.write("  requests no capabilities\n");
      }
      if (result.declined.length > 0) {
        context.stdout.write(`  grant one later with: hookyard grant ${result.name} <grant>\n`);
      }
    }
    return exitCodes.ok;
  },
} satisfies Command;

async function fromLock(context: CliContext, options: Record<string, unknown>): Promise<number> {
  const { installFromLock } = await import("../../../client/workspace-changes.js");
  const { clientContext } = await import("../../client-context.js");
  const summary = await installFromLock(clientContext(context));
  const count = summary.fromStore.length + summary.downloaded.length;
  if (options.json) {
    context.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return exitCodes.ok;
  }
  if (count === 0) {
    context.stdout.write("nothing to install: hookyard.lock lists no community hooks\n");
    return exitCodes.ok;
  }
  context.stdout.write(
    `${count} community hook${count === 1 ? "" : "s"} as hookyard.lock says: ${summary.fromStore.length} already in the store, ${summary.downloaded.length} downloaded and verified\n`,
  );
  return exitCodes.ok;
}
