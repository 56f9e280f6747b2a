import semver from "semver";
import { grantWithin, parseGrants } from "../../sandbox/capabilities.js";
import type { CliContext, Command } from "../command.js";
import { renderError } from "../error-message.js";
import { CliError, exitCodes } from "../errors.js";
import { checkGrantsWithin, chooseGrants, grantLine } from "../install/choose-grants.js";
import { registryOfResolved } from "../install/install-from-lock.js";
import { installVersion } from "../install/install-version.js";
import { installedEntry } from "../install/installed.js";
import { resolveVersion } from "../install/package-spec.js";
import { InstallTransaction } from "../install/transaction.js";
import { registryAccess, registryOption } from "../registry-access.js";

interface Outcome {
  name: string;
  from: string;
  to?: string;
  /** Capabilities the new version asks for that were not granted, when the update was refused for them. */
  refused?: string[];
}

export default {
  name: "update",
  summary:
    "Update community hooks to the newest version their range allows, asking again for new capabilities",
  args: [{ name: "[name]", description: "the package to update (default: every installed one)" }],
  options: [
    {
      flags: "--grant <grant>",
      description: "grant a capability the new version newly requests (repeat for more)",
      repeatable: true,
    },
    {
      flags: "--yes",
      description: "ask nothing: an update that requests new capabilities not named by --grant is refused",
    },
    { flags: "--accept-key <keyId>", description: "re-pin the registry's signing key to this key id" },
    registryOption,
    { flags: "--json", description: "print what changed as JSON" },
  ],
  help: [
    "Each package moves to the highest version that satisfies its range in hookyard.json, is not yanked",
    "and is not a prerelease. Grants carry over as far as the new version still asks for them. A",
    "capability the new version asks for and the old one did not is never inherited: on a terminal you",
    "are asked; with --yes or without a terminal the update is refused unless --grant names it, and the",
    "old version stays installed (exit 3).",
  ].join("\n"),
  async run(context, args, options) {
    const tx = await InstallTransaction.open(context);
    const names = args[0] === undefined ? Object.keys(tx.lock.packages).sort() : [args[0]];
    for (const name of names) installedEntry(tx, name);
    const outcomes = await tx.run(async () => {
      const done: Outcome[] = [];
      for (const name of names) done.push(await updateOne(context, tx, options, name));
      return done;
    });
    const refused = outcomes.filter((o) => o.refused);
    if (options.json) context.stdout.write(`${JSON.stringify(outcomes, null, 2)}\n`);
    else {
      if (names.length === 0)
        context.stdout.write("nothing to update: hookyard.lock lists no community hooks\n");
      for (const o of outcomes) {
        if (o.refused) {
          const error = new CliError(
            "CLI_ERR_CAPABILITIES_CHANGED",
            `${o.name} ${o.to} requests what ${o.from} did not, and it was not granted: ${o.refused.map(grantLine).join("; ")}. ` +
              `${o.name}@${o.from} stays installed; to update, grant it: hookyard update ${o.name} ${o.refused.map((g) => `--grant ${g}`).join(" ")}`,
            exitCodes.security,
          );
          context.stderr.write(`${renderError(error).line}\n`);
        } else if (o.to) context.stdout.write(`updated ${o.name} ${o.from} → ${o.to}\n`);
        else context.stdout.write(`${o.name}@${o.from} is up to date\n`);
      }
    }
    return refused.length > 0 ? exitCodes.security : exitCodes.ok;
  },
} satisfies Command;

async function updateOne(
  context: CliContext,
  tx: InstallTransaction,
  options: Record<string, unknown>,
  name: string,
): Promise<Outcome> {
  const previous = installedEntry(tx, name);
  const range = tx.config.data.community?.[name] ?? "*";
  const client = await registryAccess(
    context,
    { ...options, registry: options.registry ?? registryOfResolved(previous.resolved) },
    { root: tx.root, signal: tx.signal },
  );
  const version = resolveVersion(await client.packageDocument(name), range);
  if (!semver.gt(version.version, previous.version)) return { name, from: previous.version };
  const id = `${name}@${version.version}`;
  const installed = await installVersion(
    context,
    tx,
    client,
    version,
    typeof options.acceptKey === "string" ? options.acceptKey : undefined,
  );
  if (previous.trust === "trusted") {
    context.stderr.write(`hookyard: ${name} stays trusted: ${version.version} runs in-process too\n`);
    tx.lock.packages[name] = { ...installed.entry, trust: "trusted", grants: [] };
    return { name, from: previous.version, to: version.version };
  }
  const given = checkGrantsWithin(id, (options.grant as string[] | undefined) ?? [], installed.requested);
  const covers = (text: string, by: readonly string[]) =>
    parseGrants([text]).every((g) => grantWithin(g, parseGrants(by)));
  // Only what the old version did not ask for is new: the user already decided on the rest.
  const fresh = installed.requested.filter((text) => !covers(text, previous.requested));
  const ungranted = fresh.filter((text) => !covers(text, given));
  if (ungranted.length > 0 && (options.yes || !context.stdin.isTTY)) {
    await tx.discard(installed.storeDir);
    return { name, from: previous.version, to: version.version, refused: ungranted };
  }
  const ceiling = parseGrants(installed.requested);
  const kept = previous.grants.filter((text) => parseGrants([text]).every((g) => grantWithin(g, ceiling)));
  const { granted } = await chooseGrants(
    context,
    id,
    installed.requested,
    [...new Set([...kept, ...given])],
    {
      yes: Boolean(options.yes),
    },
  );
  tx.lock.packages[name] = { ...installed.entry, trust: "sandbox", grants: granted };
  return { name, from: previous.version, to: version.version };
}
