import type { Command } from "../../command.js";
import { renderError } from "../../error-message.js";
import { CliError, exitCodes } from "../../errors.js";
import { registryOption } from "../../options/registry.js";

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
    {
      flags: "--latest",
      description:
        "move to the newest version even outside the range in hookyard.json, and widen it to ^<newest>",
    },
    { flags: "--accept-key <keyId>", description: "re-pin the registry's signing key to this key id" },
    registryOption,
    { flags: "--json", description: "print what changed as JSON" },
  ],
  help: [
    "Each package moves to the highest version that satisfies its range in hookyard.json, is not yanked",
    "and is not a prerelease; with --latest, to the highest of all versions, and its range becomes",
    "^<that version>. `hookyard outdated` shows both for every package. Grants carry over as far as the new version still asks for them. A",
    "capability the new version asks for and the old one did not is never inherited: on a terminal you",
    "are asked; with --yes or without a terminal the update is refused unless --grant names it, and the",
    "old version stays installed (exit 3).",
  ].join("\n"),
  async run(context, args, options) {
    const { update } = await import("../../../client/workspace-changes.js");
    const { clientContext } = await import("../../client-context.js");
    const { grantLine } = await import("../../ui/capability-lines.js");
    const outcomes = await update(clientContext(context), args[0] === undefined ? undefined : [args[0]], {
      registry: options.registry,
      grant: (options.grant as string[] | undefined) ?? [],
      yes: Boolean(options.yes),
      latest: Boolean(options.latest),
      ...(typeof options.acceptKey === "string" ? { acceptKey: options.acceptKey } : {}),
    });
    const refused = outcomes.filter((o) => o.refused);
    if (options.json) context.stdout.write(`${JSON.stringify(outcomes, null, 2)}\n`);
    else {
      if (outcomes.length === 0)
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
        else if (o.latest) {
          context.stdout.write(
            `${o.name}@${o.from} is the newest version ${o.range} allows; ${o.latest} is outside that range: hookyard update ${o.name} --latest\n`,
          );
        } else context.stdout.write(`${o.name}@${o.from} is up to date\n`);
      }
    }
    return refused.length > 0 ? exitCodes.security : exitCodes.ok;
  },
} satisfies Command;
