import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { tokenCommandOptions } from "../../options/registry.js";

export default {
  name: "deprecate",
  summary: "Mark one version of your package deprecated, with a message every install of it shows",
  args: [
    { name: "<package@version>", description: "one exact version, such as guard@1.2.3" },
    { name: "[message]", description: "what users should know or do (1-1,000 characters)" },
  ],
  options: [
    { flags: "--undo", description: "take the deprecation back (no message)" },
    ...tokenCommandOptions,
  ],
  help: [
    "Unlike a yank, a deprecated version is still picked by ranges: it is only marked.",
    "`hookyard install` of it warns with the message, `hookyard info` and `hookyard audit` show it.",
    "Deprecating again replaces the message. Same rights as `hookyard yank`.",
  ].join("\n"),
  async run(context, [spec = "", message], options) {
    const undo = options.undo === true;
    if (undo === (message !== undefined)) {
      throw new CliError(
        "CLI_ERR_USAGE",
        undo
          ? "--undo takes the deprecation back and takes no message: leave the message out"
          : `say why: hookyard deprecate ${spec} "<message>" (or --undo to take a deprecation back)`,
        exitCodes.usage,
      );
    }
    if (message !== undefined && message.trim() === "") {
      throw new CliError(
        "CLI_ERR_USAGE",
        "the message is empty: say what users should know or do",
        exitCodes.usage,
      );
    }
    const { changeVersion } = await import("../../manage/version-change.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { terminalLine } = await import("../../ui/terminal-text.js");
    const changed = await changeVersion(context, options, spec, (client, name, version) =>
      client.deprecate(name, version, undo ? null : (message ?? null)),
    );
    const id = `${changed.name}@${changed.version}`;
    if (undo) {
      return printAnswer(context, options, changed, [
        changed.before.deprecated === null
          ? `${id} was not deprecated on ${changed.registry}: nothing changed`
          : `${id} is no longer deprecated on ${changed.registry}: installs of it no longer warn`,
      ]);
    }
    return printAnswer(context, options, changed, [
      `deprecated ${id} on ${changed.registry}: ${terminalLine(changed.after.deprecated ?? "")}`,
      `- every install of it now warns "${id} is deprecated: …"; \`hookyard info\` and \`hookyard audit\` show the message`,
      "- ranges still pick it (to stop that, yank it: hookyard yank)",
      `- undo: hookyard deprecate ${id} --undo`,
    ]);
  },
} satisfies Command;
