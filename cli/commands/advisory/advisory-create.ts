import { severities } from "../../../client/severity.js";
import type { Command } from "../../command.js";
import { tokenCommandOptions } from "../../options/registry.js";

export default {
  name: "create",
  summary: "Publish an advisory against a range of a package's versions (needs an admin token)",
  args: [{ name: "<package>", description: "the package it is about, such as guard or @acme/guard" }],
  options: [
    {
      flags: "--range <range>",
      description: "the affected versions, a semver range such as <1.2.3",
      required: true,
    },
    { flags: "--severity <level>", description: "how bad it is", required: true, choices: [...severities] },
    {
      flags: "--text <text>",
      description: "what is wrong and what to do (1-4,000 characters)",
      required: true,
    },
    ...tokenCommandOptions,
  ],
  help: [
    "From the next request on, `hookyard audit` reports it in every workspace with an affected",
    "version installed (failing at --level and above), and `hookyard info` shows it. The package",
    "must exist on the registry. Advisories cannot be edited or withdrawn from the CLI.",
  ].join("\n"),
  async run(context, [name = ""], options) {
    const { createAdvisory } = await import("../../manage/advisory-create.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const created = await createAdvisory(context, options, name);
    const { advisory, affected } = created;
    const lines = [
      `published advisory ${advisory.id} on ${created.registry}: ${advisory.package} ${advisory.range} (${advisory.severity})`,
      affected.length > 0
        ? `- it affects ${affected.join(", ")}: \`hookyard audit\` reports it wherever one is installed, \`hookyard info ${advisory.package}\` shows it`
        : `- it affects none of the published versions (${created.versions.join(", ") || "none"}): check --range`,
    ];
    return printAnswer(context, options, created, lines);
  },
} satisfies Command;
