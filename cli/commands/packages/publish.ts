import type { Command } from "../../command.js";
import { exitCodes } from "../../errors.js";
import { registryOption, tokenOption } from "../../options/registry.js";

export default {
  name: "publish",
  summary: "Publish a hook package (its folder, packed first, or a .tgz) to a registry",
  args: [
    { name: "[dir-or-tgz]", description: "a package folder or a .tgz (default: the current directory)" },
  ],
  options: [registryOption, tokenOption, { flags: "--json", description: "print JSON instead of text" }],
  help: [
    "A folder is packed exactly as `hookyard pack` packs it (the bundle is rebuilt, no .tgz is",
    "left behind); a .tgz is published byte for byte. The token is never printed.",
  ].join("\n"),
  async run(context, [target], options) {
    const { publish } = await import("../../../client/publish.js");
    const published = await publish(context, target ?? ".", options);
    if (options.json) {
      context.stdout.write(`${JSON.stringify(published, null, 2)}\n`);
      return exitCodes.ok;
    }
    context.stdout.write(
      `published ${published.name}@${published.version} to ${published.registry} (integrity ${published.integrity})\n`,
    );
    return exitCodes.ok;
  },
} satisfies Command;
