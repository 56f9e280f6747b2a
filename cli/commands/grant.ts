import type { Command } from "../command.js";

export default {
  name: "grant",
  summary: "Grant an installed sandboxed hook capabilities it requests",
  args: [
    { name: "<name>", description: "an installed package" },
    {
      name: "<grants...>",
      description: "fs.read:<path>, fs.write:<path>, net:<host>[:<port>], process:<cmd>, env:<NAME>, rewrite",
    },
  ],
  options: [{ flags: "--json", description: "print the package's grants as JSON" }],
  help: "A grant may narrow what the package requests (fs.read:docs/api for fs.read:docs), never widen it.",
  async run(context, args, options) {
    const [name, ...grants] = args;
    const { changeGrants } = await import("../install/change-grants.js");
    return changeGrants(context, name as string, grants, "grant", options);
  },
} satisfies Command;
