import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../helpers/cli.js";
import { runCli } from "../../helpers/run-cli.js";
import { tempDir, workspace } from "../../helpers/temp.js";

vi.mock("../../../cli/commands/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../cli/commands/index.js")>();
  const mine = [
    (await import("../../../cli/commands/agents/install-into.js")).default,
    (await import("../../../cli/commands/agents/uninstall-from.js")).default,
  ];
  const names = new Set(mine.map((command) => command.name));
  return { commands: [...original.commands.filter((command) => !names.has(command.name)), ...mine] };
});

async function project() {
  const root = await workspace({ "hookyard.json": {} });
  const home = await tempDir();
  const run = (...args: string[]) => runCli(args, { cwd: root, env: { HOME: home } });
  return { root, home, run };
}

/** Every file under `dir` with its text, and every folder (as `name/`): the tree a user would see. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = relative(dir, join(entry.parentPath, entry.name));
    out[entry.isDirectory() ? `${path}/` : path] = entry.isDirectory()
      ? ""
      : await readFile(join(dir, path), "utf8");
  }
  return out;
}

const extensionDir = (base: string, user = false) =>
  join(base, ...(user ? [".pi", "agent", "extensions"] : [".pi", "extensions"]), "hookyard");

describe("hookyard install-into pi", () => {
  it("copies hookyard's extension into .pi/extensions/hookyard/ with the command that runs this hookyard; run again, it changes nothing", async () => {
    const { root, run } = await project();
    const result = await run("install-into", "pi");
    expect(result.code, result.stderr).toBe(0);
    const dir = extensionDir(root);
    expect(await readFile(join(dir, "index.ts"), "utf8")).toBe(
      await readFile(join(repoRoot, "integrations", "pi", "index.ts"), "utf8"),
    );
    const config = JSON.parse(await readFile(join(dir, "command.json"), "utf8"));
    expect(config.command).toEqual([process.execPath, join(repoRoot, "bin", "hookyard.js")]);
    expect(result.stdout).toContain("wrote hookyard's Pi extension");
    const before = await tree(root);
    const again = await run("install-into", "pi");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("nothing to change");
    expect(await tree(root)).toEqual(before);
  });

  it("uninstall-from pi leaves the tree byte for byte as it was: the folders it made go, the user's own extension and folders stay", async () => {
    const { root, run } = await project();
    const untouched = await tree(root);
    expect((await run("install-into", "pi")).code).toBe(0);
    const removed = await run("uninstall-from", "pi");
    expect(removed.code, removed.stderr).toBe(0);
    expect(await tree(root)).toEqual(untouched);

    // A user who already has .pi/extensions/ with an extension of their own keeps both.
    await mkdir(join(root, ".pi", "extensions"), { recursive: true });
    await writeFile(join(root, ".pi", "extensions", "mine.ts"), "export default function () {}\n");
    const withMine = await tree(root);
    expect((await run("install-into", "pi")).code).toBe(0);
    expect((await run("uninstall-from", "pi")).code).toBe(0);
    expect(await tree(root)).toEqual(withMine);
    const nothing = await run("uninstall-from", "pi");
    expect(nothing.stdout).toContain("nothing to change");
  });

  it("a file of the user's where the extension would go is left alone, and the install refused (CLI_ERR_AGENT_FILES)", async () => {
    const { root, run } = await project();
    const dir = extensionDir(root);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "index.ts"), "export default function mine() {}\n");
    const before = await tree(root);
    const result = await run("install-into", "pi");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_AGENT_FILES");
    expect(result.stderr).toContain("is not hookyard's extension");
    expect(await tree(root)).toEqual(before);
    // Nor does uninstall take the user's file.
    expect((await run("uninstall-from", "pi")).code).toBe(0);
    expect(await tree(root)).toEqual(before);
  });

  it("--dry-run shows the files as a diff and writes nothing; --user writes ~/.pi/agent/extensions/hookyard/; --http is refused", async () => {
    const { root, home, run } = await project();
    const before = await tree(root);
    const dry = await run("install-into", "pi", "--dry-run");
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`+++ ${join(extensionDir(root), "index.ts")}`);
    expect(dry.stdout).toContain('+  "addedBy": "hookyard install-into pi"');
    expect(dry.stdout).toContain("dry run: nothing written");
    expect(await tree(root)).toEqual(before);

    expect((await run("install-into", "pi", "--user")).code).toBe(0);
    expect(Object.keys(await tree(extensionDir(home, true))).sort()).toEqual(["command.json", "index.ts"]);
    expect(await tree(root)).toEqual(before);
    const dryOut = await run("uninstall-from", "pi", "--user", "--dry-run");
    expect(dryOut.stdout).toContain("would remove");
    expect((await run("uninstall-from", "pi", "--user")).code).toBe(0);
    expect(await readdir(home)).toEqual([]);

    const http = await run("install-into", "pi", "--http");
    expect(http.code).toBe(2);
    expect(http.stderr).toContain("no --http");
  });
});
