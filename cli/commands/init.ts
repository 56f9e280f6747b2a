import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeHookyardGitignore } from "../../workspace/gitignore.js";
import { configFileName } from "../../workspace/root.js";
import type { Command } from "../command.js";

const starterConfig = {
  hooks: {},
  rules: [],
};

export default {
  name: "init",
  summary: "Make this directory a hookyard workspace (hookyard.json and .hookyard/hooks/)",
  help: "Existing files are left as they are, so running init twice is harmless.",
  async run(context) {
    const created: string[] = [];
    const write = async (relative: string, text: string) => {
      try {
        await writeFile(join(context.cwd, relative), text, { flag: "wx" });
        created.push(relative);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    };
    await mkdir(join(context.cwd, ".hookyard", "hooks"), { recursive: true });
    await write(configFileName, `${JSON.stringify(starterConfig, null, 2)}\n`);
    if (await writeHookyardGitignore(context.cwd)) created.push(join(".hookyard", ".gitignore"));
    context.stdout.write(
      created.length > 0
        ? `Initialised a hookyard workspace in ${context.cwd}\n${created.map((f) => `  created ${f}\n`).join("")}` +
            "Put trusted hooks in .hookyard/hooks/*.ts and see them with `hookyard list`.\n"
        : `${context.cwd} is already a hookyard workspace; nothing changed.\n`,
    );
    return 0;
  },
} satisfies Command;
