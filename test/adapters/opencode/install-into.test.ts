import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
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
  return { root, home, run, file: join(root, ".opencode", "plugins", "hookyard.ts") };
}

/** Every file under `dir`, with its bytes: what "byte-exact" compares. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = entry.isFile() ? await readFile(path, "utf8") : "<dir>";
  }
  return out;
}

describe("hookyard install-into opencode", () => {
  it("writes hookyard's plugin to .opencode/plugins/hookyard.ts, marked, with this hookyard's node and bin written in", async () => {
    const { file, run } = await project();
    const result = await run("install-into", "opencode");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`wrote hookyard's OpenCode plugin: ${file}`);
    const text = await readFile(file, "utf8");
    expect(text.split("\n")[0]).toContain("added by hookyard install-into opencode");
    const bin = join(process.cwd(), "bin", "hookyard.js");
    expect(text).toContain(
      `const installedCommand: readonly string[] = ${JSON.stringify([process.execPath, bin])};`,
    );
    expect(text).toContain('"tool.execute.before"');
  });

  it("is idempotent, and uninstall-from takes the project back to its bytes, the user's own plugins kept", async () => {
    const { root, file, run } = await project();
    await mkdir(join(root, ".opencode", "plugins"), { recursive: true });
    await writeFile(join(root, ".opencode", "plugins", "mine.js"), "export const Mine = async () => ({});\n");
    await writeFile(join(root, ".opencode", "opencode.json"), '{ "theme": "dark" }\n');
    const before = await snapshot(root);
    expect((await run("install-into", "opencode")).code).toBe(0);
    const installed = await readFile(file, "utf8");
    const again = await run("install-into", "opencode");
    expect(again.stdout).toContain("already in");
    expect(await readFile(file, "utf8")).toBe(installed);
    const removed = await run("uninstall-from", "opencode");
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("removed hookyard's OpenCode plugin");
    expect(await snapshot(root)).toEqual(before);
  });

  it("in a project with no .opencode/, uninstall-from removes the folders install-into made", async () => {
    const { root, run } = await project();
    const before = await snapshot(root);
    expect((await run("install-into", "opencode")).code).toBe(0);
    expect((await run("uninstall-from", "opencode")).code).toBe(0);
    expect(existsSync(join(root, ".opencode"))).toBe(false);
    expect(await snapshot(root)).toEqual(before);
  });

  it("--dry-run prints the new file as a diff and writes nothing", async () => {
    const { root, file, run } = await project();
    const result = await run("install-into", "opencode", "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("--- /dev/null");
    expect(result.stdout).toContain("+// added by hookyard install-into opencode");
    expect(existsSync(join(root, ".opencode"))).toBe(false);
    await run("install-into", "opencode");
    const dry = await run("uninstall-from", "opencode", "--dry-run");
    expect(dry.stdout).toContain("would be removed");
    expect(existsSync(file)).toBe(true);
  });

  it("a hookyard.ts of the user's own is left alone: install-into refuses, uninstall-from does not touch it", async () => {
    const { root, file, run } = await project();
    await mkdir(join(root, ".opencode", "plugins"), { recursive: true });
    await writeFile(file, "// my own plugin\n");
    const result = await run("install-into", "opencode");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_AGENT_PLUGIN_FILE");
    const removed = await run("uninstall-from", "opencode");
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("not hookyard's");
    expect(await readFile(file, "utf8")).toBe("// my own plugin\n");
  });

  it("--user writes the config folder's plugins/ ($XDG_CONFIG_HOME/opencode, else ~/.config/opencode)", async () => {
    const { home, run } = await project();
    expect((await run("install-into", "opencode", "--user")).code).toBe(0);
    expect(existsSync(join(home, ".config", "opencode", "plugins", "hookyard.ts"))).toBe(true);
    expect((await run("uninstall-from", "opencode", "--user")).code).toBe(0);
    expect(existsSync(join(home, ".config", "opencode"))).toBe(false);
  });

  it("an unknown agent's message names opencode among the agents hookyard knows", async () => {
    const { run } = await project();
    const result = await run("install-into", "nosuchagent");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("opencode (OpenCode)");
  });

  it("refuses --http: OpenCode runs hookyard through its plugin", async () => {
    const { run } = await project();
    const result = await run("install-into", "opencode", "--http");
    expect(result.code).toBe(2);
  });
});
