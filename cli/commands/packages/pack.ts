import { stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { defaultEntries } from "../../../client/pack/default-entries.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { table } from "../../ui/table.js";

export default {
  name: "pack",
  summary: "Bundle a hook package into one module and write its reproducible .tgz",
  args: [{ name: "[dir]", description: "the package's folder (default: the current directory)" }],
  options: [
    { flags: "--out <file>", description: "where to write the .tgz (default: <dir>/<name>-<version>.tgz)" },
    {
      flags: "--entry <file>",
      description: `the hook's source (default: the first of ${defaultEntries.join(", ")})`,
    },
    { flags: "--json", description: "print JSON instead of text" },
  ],
  help: [
    "The source is bundled with everything it imports into hookyard.main; with no source, main is",
    "packed as it is, and must import nothing. The tarball holds package.json, main, README* and",
    "LICENSE*. The same files give the same bytes, wherever the folder is and whatever its mtimes.",
  ].join("\n"),
  async run(context, [dirArg], options) {
    const dir = resolve(context.cwd, dirArg ?? ".");
    if (!(await stat(dir).catch(() => undefined))?.isDirectory()) {
      throw new CliError("CLI_ERR_USAGE", `${dir} is not a folder`, exitCodes.usage);
    }
    const { packPackage, tarballFileName } = await import("../../../client/pack/pack-package.js");
    const { writeFileAtomic } = await import("../../../workspace/atomic-file.js");
    const packed = await packPackage(dir, {
      ...(typeof options.entry === "string" ? { entry: resolve(context.cwd, options.entry) } : {}),
    });
    const file =
      typeof options.out === "string"
        ? resolve(context.cwd, options.out)
        : join(dir, tarballFileName(packed.name, packed.version));
    await writeFileAtomic(file, packed.tarball);
    const size = packed.tarball.length;
    if (options.json) {
      const { name, version, integrity, files } = packed;
      context.stdout.write(`${JSON.stringify({ file, name, version, integrity, size, files }, null, 2)}\n`);
      return exitCodes.ok;
    }
    const shown = relative(context.cwd, file);
    const bundled = packed.entry ? ` (bundled ${relative(dir, packed.entry)})` : "";
    context.stdout.write(`packed ${packed.name}@${packed.version}${bundled}\n`);
    context.stdout.write(
      table(
        packed.files.map((f) => [f.path, `${f.size} B`]),
        "  ",
      ),
    );
    context.stdout.write(
      table([
        ["file", shown.startsWith("..") ? file : shown],
        ["size", `${size} B, ${packed.files.length} files`],
        ["integrity", packed.integrity],
      ]),
    );
    return exitCodes.ok;
  },
} satisfies Command;
