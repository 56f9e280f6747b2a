import type { Command } from "../../command.js";
import { exitCodes } from "../../errors.js";

export default {
  name: "grant",
  summary: "Grant an installed sandboxed hook capabilities it requests",
  args: [
    { name: "<name>", description: "an installed package" },
    {
      name: "<grants...>",
      description:
        "fs.read:<path>, fs.write:<path>, net:<host>[:<port>], process:<cmd>, env:<NAME>, rewrite:<point>.<field>, redact:<point>.<field>, rewrite",
    },
  ],
  options: [{ flags: "--json", description: "print the package's grants as JSON" }],
  help: "A grant may narrow what the package requests (fs.read:docs/api for fs.read:docs, rewrite:tool_before.args.timeout for rewrite:tool_before.args, redact:tool_after.result for rewrite:tool_after.result), never widen it.",
  async run(context, args, options) {
    const [name, ...grants] = args;
    const { grant } = await import("../../../client/workspace-changes.js");
    const { clientContext } = await import("../../client-context.js");
    const { printGrants } = await import("../../ui/capability-lines.js");
    const after = await grant(clientContext(context), name as string, grants);
    printGrants(context, after, Boolean(options.json));
    return exitCodes.ok;
  },
} satisfies Command;
