import type { Command } from "../../command.js";
import { jsonOption, registryOption } from "../../options/registry.js";

export default {
  name: "ls",
  summary: "List the owners of a package (and of its scope) or of a scope",
  args: [{ name: "<package-or-scope>", description: "guard, @acme/guard, or a scope: @acme" }],
  options: [registryOption, jsonOption],
  help: [
    "Owners may publish new versions, yank, deprecate and change owners. A scope's owners also",
    "publish new packages in it and manage every package in it. Needs no token.",
  ].join("\n"),
  async run(context, [target = ""], options) {
    const { parseOwnersTarget, ownersTargetName } = await import("../../manage/owners-target.js");
    const { registryAccess } = await import("../../../client/access/registry-access.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { terminalLine } = await import("../../ui/terminal-text.js");
    const of = parseOwnersTarget(target);
    const client = await registryAccess(context, options);
    const answer = await client.owners(of);
    const list = (owners: readonly string[]) => terminalLine(owners.join(", ") || "none");
    const lines = [`owners of ${ownersTargetName(of)} on ${client.url}: ${list(answer.owners)}`];
    if (typeof answer.scope === "object") {
      lines.push(
        `owners of its scope ${terminalLine(answer.scope.name)} (they manage every package in it): ${list(answer.scope.owners)}`,
      );
    }
    return printAnswer(context, options, { registry: client.url, ...answer }, lines);
  },
} satisfies Command;
