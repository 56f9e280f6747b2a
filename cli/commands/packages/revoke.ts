import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";

export default {
  name: "revoke",
  summary: "Take back capabilities granted to an installed sandboxed hook",
  args: [
    { name: "<name>", description: "an installed package" },
    { name: "[grants...]", description: "the grants to take back, as `hookyard list` shows them" },
  ],
  options: [
    { flags: "--all", description: "take back every grant" },
    { flags: "--json", description: "print the package's grants as JSON" },
  ],
  async run(context, args, options) {
    const [name, ...grants] = args;
    if (grants.length === 0 && !options.all) {
      throw new CliError("CLI_ERR_USAGE", "name the grants to take back, or pass --all", exitCodes.usage);
    }
    const { revoke } = await import("../../../client/workspace-changes.js");
    const { clientContext } = await import("../../client-context.js");
    const { printGrants } = await import("../../ui/capability-lines.js");
    const after = await revoke(clientContext(context), name as string, grants, { all: Boolean(options.all) });
    printGrants(context, after, Boolean(options.json));
    return exitCodes.ok;
  },
} satisfies Command;
