import type { Command } from "../../command.js";
import type { OwnersChange } from "../../manage/owners-change.js";
import { tokenCommandOptions } from "../../options/registry.js";

/**
 * `owner add` and `owner rm`: the same arguments, checks and output, but for the sentence that
 * says what changed (`said`, given the change, the target's name and a safe list of owners).
 */
export function ownerChangeCommand(meta: {
  name: string;
  summary: string;
  help: string;
  change: "add" | "remove";
  said(change: OwnersChange, name: string, owners: (list: readonly string[]) => string): string;
}): Command {
  return {
    name: meta.name,
    summary: meta.summary,
    args: [
      { name: "<owner>", description: "the owner's name, as the registry knows it" },
      { name: "<package-or-scope>", description: "guard, @acme/guard, or a scope: @acme" },
    ],
    options: tokenCommandOptions,
    help: meta.help,
    async run(context, args, options) {
      const { changeOwners } = await import("../../manage/owners-change.js");
      const { ownersTargetName } = await import("../../manage/owners-target.js");
      const { printAnswer } = await import("../../ui/print-answer.js");
      const { terminalLine } = await import("../../ui/terminal-text.js");
      const change = await changeOwners(context, options, args, meta.change);
      const owners = (list: readonly string[]) => terminalLine(list.join(", ") || "none");
      return printAnswer(context, options, change, [meta.said(change, ownersTargetName(change.of), owners)]);
    },
  };
}
