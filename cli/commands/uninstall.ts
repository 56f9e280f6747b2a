import type { Command } from "../command.js";
import { exitCodes } from "../errors.js";

export default {
  name: "uninstall",
  summary: "Remove community hooks: from hookyard.json, hookyard.lock and the store",
  args: [{ name: "<names...>", description: "installed package names" }],
  options: [{ flags: "--json", description: "print what was removed as JSON" }],
  async run(context, args, options) {
    const { installedEntry } = await import("../install/installed.js");
    const { InstallTransaction } = await import("../install/transaction.js");
    const tx = await InstallTransaction.open(context);
    const removed = await tx.run(async () => {
      const entries = args.map((name) => ({ name, ...installedEntry(tx, name) }));
      tx.dropUnusedAfterCommit(entries.map((entry) => entry.integrity));
      for (const { name } of entries) {
        delete tx.lock.packages[name];
        if (tx.config.data.community) delete tx.config.data.community[name];
      }
      return entries;
    });
    if (options.json) {
      context.stdout.write(
        `${JSON.stringify(
          removed.map(({ name, version }) => ({ name, version })),
          null,
          2,
        )}\n`,
      );
    } else {
      for (const { name, version } of removed) context.stdout.write(`removed ${name}@${version}\n`);
    }
    return exitCodes.ok;
  },
} satisfies Command;
