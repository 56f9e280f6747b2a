import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { Command } from "../command.js";
import { CliError, exitCodes } from "../errors.js";
import { registryOption, tokenOption } from "../registry-options.js";

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
    const path = resolve(context.cwd, target ?? ".");
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new CliError("CLI_ERR_USAGE", `${path} does not exist`, exitCodes.usage);

    // The token first: without one, nothing is bundled or read.
    const { registryAccess } = await import("../registry-access.js");
    const client = await registryAccess(context, options, { needToken: true });

    const { packPackage } = await import("../pack-package.js");
    const { readTarballPackage } = await import("../tarball-package.js");
    const { explainPublishRefusal } = await import("../publish-refusal.js");
    const pkg = info.isDirectory() ? await packPackage(path) : await readTarballPackage(path);
    const published = { name: pkg.name, version: pkg.version, registry: client.url };
    try {
      await client.publish(pkg.name, pkg.version, pkg.tarball);
    } catch (error) {
      throw explainPublishRefusal(error, published);
    }
    if (options.json) {
      const answer = { ...published, integrity: pkg.integrity, size: pkg.tarball.length };
      context.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return exitCodes.ok;
    }
    context.stdout.write(
      `published ${pkg.name}@${pkg.version} to ${client.url} (integrity ${pkg.integrity})\n`,
    );
    return exitCodes.ok;
  },
} satisfies Command;
