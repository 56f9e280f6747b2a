import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { scaffoldFiles, unscopedName } from "../../../client/pack/package-files.js";
import { describeIssues } from "../../../core/errors.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";

export default {
  name: "new",
  summary:
    "Create a hook package: TypeScript source, package.json with the hookyard field, a README and a sandbox test",
  args: [{ name: "<name>", description: "the package name, e.g. no-rm-rf or @me/no-rm-rf" }],
  options: [
    { flags: "--dir <dir>", description: "where to create it (default: ./<name without its @scope>)" },
    { flags: "--json", description: "print JSON instead of text" },
  ],
  help: "The folder must not exist, or be empty: nothing is overwritten.",
  async run(context, [name = ""], options) {
    const { packageNameSchema } = await import("../../../package/manifest.js");
    const valid = packageNameSchema.safeParse(name);
    if (!valid.success) {
      throw new CliError(
        "CLI_ERR_USAGE",
        `${JSON.stringify(name)} is not a package name: ${describeIssues(valid.error)}`,
        exitCodes.usage,
      );
    }
    const dir = resolve(context.cwd, typeof options.dir === "string" ? options.dir : unscopedName(name));
    await refuseUnlessEmpty(dir);
    const files = scaffoldFiles(name);
    for (const [path, text] of Object.entries(files)) {
      const file = join(dir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text, { flag: "wx" });
    }
    if (options.json) {
      context.stdout.write(`${JSON.stringify({ name, dir, files: Object.keys(files) }, null, 2)}\n`);
      return exitCodes.ok;
    }
    const shown = relative(context.cwd, dir) || ".";
    context.stdout.write(
      [
        `Created the hook package ${name} in ${dir}`,
        ...Object.keys(files).map((path) => `  ${path}`),
        "",
        "Next:",
        ...(shown === "." ? [] : [`  cd ${shown}`]),
        "  npm test           # hookyard test: type-checks src/, runs test/ in the real sandbox",
        "  hookyard pack      # bundles dist/hook.js and writes the .tgz",
        "  hookyard publish   # needs a token: hookyard login",
        "",
      ].join("\n"),
    );
    return exitCodes.ok;
  },
} satisfies Command;

/** A new package goes into a fresh or empty folder only: an author's existing files are never overwritten. */
async function refuseUnlessEmpty(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!info) return;
  if (!info.isDirectory()) {
    throw new CliError(
      "CLI_ERR_FILESYSTEM",
      `${dir} exists and is not a folder: choose another name or pass --dir <new folder>`,
    );
  }
  if ((await readdir(dir)).length > 0) {
    throw new CliError(
      "CLI_ERR_FILESYSTEM",
      `${dir} is not empty; nothing was written: choose another name or pass --dir <new or empty folder>`,
    );
  }
}
