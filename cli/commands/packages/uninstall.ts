import type { Command } from "../../command.js";
import { exitCodes } from "../../errors.js";

export default {
  name: "uninstall",
  summary: "Remove community hooks: from hookyard.json, hookyard.lock and the store",
  args: [{ name: "<names...>", description: "installed package names" }],
  options: [{ flags: "--json", description: "print what was removed as JSON" }],
  async run(context, args, options) {
    const { uninstall } = await import("../../../client/workspace-changes.js");
    const { clientContext } = await import("../../client-context.js");
    const removed = await uninstall(clientContext(context), args);
    if (options.json) {
      context.stdout.write(`${JSON.stringify(removed, null, 2)}\n`);
    } else {
      for (const { name, version } of removed) context.stdout.write(`removed ${name}@${version}\n`);
    }
    return exitCodes.ok;
  },
} satisfies Command;
