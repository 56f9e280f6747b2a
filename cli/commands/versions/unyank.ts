import type { Command } from "../../command.js";
import { tokenCommandOptions } from "../../options/registry.js";

export default {
  name: "unyank",
  summary: "Take back the yank of one version of your package: ranges may pick it again",
  args: [{ name: "<package@version>", description: "one exact version, such as guard@1.2.3" }],
  options: tokenCommandOptions,
  help: [
    "The version is shown without its yank and reason again, and may become latest. Unyanking a",
    "version that is not yanked changes nothing. Same rights as `hookyard yank`.",
  ].join("\n"),
  async run(context, [spec = ""], options) {
    const { changeVersion } = await import("../../manage/version-change.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const changed = await changeVersion(context, options, spec, (client, name, version) =>
      client.yank(name, version, null),
    );
    const id = `${changed.name}@${changed.version}`;
    const latest = `latest is ${changed.latest ?? "none (no version is neither yanked nor a prerelease)"}`;
    return printAnswer(context, options, changed, [
      changed.before.yanked
        ? `unyanked ${id} on ${changed.registry}: installs and version ranges may pick it again; ${latest}`
        : `${id} was not yanked on ${changed.registry}: nothing changed; ${latest}`,
    ]);
  },
} satisfies Command;
