import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Command, CommandGroup } from "../../cli/command.js";
import { commands } from "../../cli/commands/index.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const commandsDir = join(repoRoot, "cli/commands");
const cliDocs = join(repoRoot, "docs/cli");

/**
 * Where a command's page belongs: docs/cli/ mirrors cli/commands/, so `install`
 * (cli/commands/packages/install.ts) is docs/cli/packages/install.md. A command that heads its own
 * folder (cli/commands/owner/owner.ts, whose subcommands sit beside it) has one page for them all,
 * docs/cli/owner.md.
 */
function pagePath(sourceFile: string, name: string): string {
  const folder = relative(commandsDir, dirname(sourceFile));
  const ownFolder = folder.split("/").at(-1) === name;
  return join(cliDocs, ownFolder ? dirname(folder) : folder, `${name}.md`);
}

async function commandFiles(): Promise<Map<Command | CommandGroup, string>> {
  const byCommand = new Map<Command | CommandGroup, string>();
  const index = await readFile(join(commandsDir, "index.ts"), "utf8");
  for (const [, spec] of index.matchAll(/^import \w+ from "(\.[^"]+)";$/gm)) {
    const file = join(commandsDir, (spec as string).replace(/\.js$/, ".ts"));
    const module = (await import(pathToFileURL(file).href)) as { default: Command | CommandGroup };
    byCommand.set(module.default, file);
  }
  return byCommand;
}

function pagesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? pagesUnder(join(dir, entry.name))
      : entry.name.endsWith(".md")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("docs/cli", () => {
  it("has a page for every command, in the folder that mirrors the command's", async () => {
    const files = await commandFiles();
    expect(commands.length).toBeGreaterThan(0);
    const pages = commands.map((command) => {
      const file = files.get(command);
      if (!file) throw new Error(`command ${command.name} is not imported by cli/commands/index.ts`);
      return pagePath(file, command.name);
    });
    expect(pages.filter((page) => !existsSync(page)).map((page) => relative(repoRoot, page))).toEqual([]);
  });

  it("has no page for a command that does not exist (a page left behind by a move or a removal)", async () => {
    const files = await commandFiles();
    const expected = new Set(commands.map((command) => pagePath(files.get(command) as string, command.name)));
    const strays = pagesUnder(cliDocs).filter((page) => !expected.has(page));
    expect(strays.map((page) => relative(repoRoot, page))).toEqual([]);
  });
});
