import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { tokenCommandOptions } from "../../options/registry.js";

export default {
  name: "yank",
  summary: "Withdraw one version of your package, with a reason: ranges stop picking it, its bytes stay",
  args: [{ name: "<package@version>", description: "one exact version, such as guard@1.2.3" }],
  options: [
    {
      flags: "--reason <text>",
      description: "why (1-1,000 characters): shown wherever the version is",
      required: true,
    },
    ...tokenCommandOptions,
  ],
  help: [
    "A yanked version is never deleted: hookyard.lock files that pin it keep installing it, and",
    "`hookyard install <package>@<version>` still installs it, with a warning. Ranges and",
    "`hookyard install <package>` skip it, it stops being latest, and `hookyard audit` reports it in",
    "every workspace that has it. Yanking again replaces the reason; `hookyard unyank` takes it back.",
    "Needs a publish token of an owner of the package or its scope, or an admin token.",
  ].join("\n"),
  async run(context, [spec = ""], options) {
    const { changeVersion } = await import("../../manage/version-change.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { terminalLine } = await import("../../ui/terminal-text.js");
    const reason = String(options.reason);
    if (reason.trim() === "") {
      throw new CliError(
        "CLI_ERR_USAGE",
        "--reason is empty: say why users should not install it",
        exitCodes.usage,
      );
    }
    const changed = await changeVersion(context, options, spec, (client, name, version) =>
      client.yank(name, version, reason),
    );
    const id = `${changed.name}@${changed.version}`;
    return printAnswer(context, options, changed, [
      `${changed.before.yanked ? "yanked again (the new reason replaces the old)" : "yanked"} ${id} on ${changed.registry}: ${terminalLine(changed.after.yankedReason ?? reason)}`,
      `- \`hookyard install ${changed.name}\` and version ranges no longer pick it; latest is now ${changed.latest ?? "none (no version is neither yanked nor a prerelease)"}`,
      `- \`hookyard install ${id}\` still installs it, with the warning "${id} is yanked"`,
      "- workspaces that have it keep it (hookyard.lock); `hookyard audit` there reports it",
      `- undo: hookyard unyank ${id}`,
    ]);
  },
} satisfies Command;
