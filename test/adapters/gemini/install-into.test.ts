import { mkdir, readFile, writeFile } from "node:fs/promises";
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

const events = [
  "BeforeTool",
  "AfterTool",
  "BeforeAgent",
  "AfterAgent",
  "SessionStart",
  "SessionEnd",
  "PreCompress",
  "Notification",
];

/** Settings as a Gemini CLI user keeps them: their own hook, other fields. */
const userSettings = {
  model: { name: "gemini-2.5-pro" },
  hooks: {
    BeforeTool: [
      {
        matcher: "write_file|replace",
        hooks: [{ name: "security-check", type: "command", command: "./check.sh", timeout: 5000 }],
      },
    ],
  },
  general: { vimMode: true },
};
const asWritten = (data: object) => `${JSON.stringify(data, null, 2)}\n`;

async function project(settings?: object) {
  const root = await workspace({ "hookyard.json": {} });
  const file = join(root, ".gemini", "settings.json");
  if (settings !== undefined) {
    await mkdir(join(root, ".gemini"), { recursive: true });
    await writeFile(file, asWritten(settings));
  }
  const home = await tempDir();
  const run = (...args: string[]) => runCli(args, { cwd: root, env: { HOME: home } });
  return { root, file, home, run };
}

type Hook = { name?: string; type: string; command?: string; timeout?: number };

describe("hookyard install-into gemini", () => {
  it("adds a command hook per mapped event to .gemini/settings.json after the user's own, and says what the agent needs", async () => {
    const { file, run } = await project(userSettings);
    const result = await run("install-into", "gemini");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`added hookyard for 8 events (${events.join(", ")})`);
    expect(result.stdout).toContain("trusts");
    const written = JSON.parse(await readFile(file, "utf8"));
    expect(Object.keys(written)).toEqual(["model", "hooks", "general"]);
    expect(Object.keys(written.hooks)).toEqual(events);
    const before = written.hooks.BeforeTool as Array<{ matcher?: string; hooks: Hook[] }>;
    expect(before[0]).toEqual(userSettings.hooks.BeforeTool[0]);
    expect(before[1]?.matcher).toBe("*");
    const hook = before[1]?.hooks[0] as Hook;
    expect(hook).toMatchObject({ name: "hookyard", type: "command", timeout: 30_000 });
    expect(hook.command).toContain(
      "exec --profile gemini BeforeTool || exit 2 # added by hookyard install-into gemini",
    );
    // Only where that agent can block: elsewhere a failure stays its warning.
    const after = written.hooks.AfterTool[0].hooks[0] as Hook;
    expect(after.command).toMatch(/exec --profile gemini AfterTool # added by hookyard install-into gemini$/);
    expect(hook.command).toContain(process.execPath);
    expect(written.hooks.SessionStart[0].matcher).toBeUndefined();
  });

  it("is idempotent, and uninstall-from gemini gives back the file byte for byte", async () => {
    const { file, run } = await project(userSettings);
    const original = await readFile(file, "utf8");
    expect((await run("install-into", "gemini")).code).toBe(0);
    const once = await readFile(file, "utf8");
    const again = await run("install-into", "gemini");
    expect(again.stdout).toContain("nothing to change");
    expect(await readFile(file, "utf8")).toBe(once);
    const removed = await run("uninstall-from", "gemini");
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("removed hookyard from 8 events");
    expect(await readFile(file, "utf8")).toBe(original);
  });

  it("--dry-run prints a diff and writes nothing, not even .gemini/", async () => {
    const { root, run } = await project();
    const result = await run("install-into", "gemini", "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("--- /dev/null");
    expect(result.stdout).toContain('+    "BeforeTool": [');
    expect(result.stdout).toContain("dry run: nothing written to");
    await expect(readFile(join(root, ".gemini", "settings.json"), "utf8")).rejects.toThrow();
  });

  it("--user writes ~/.gemini/settings.json; claude's file is never touched, nor gemini's by claude", async () => {
    const { root, home, run } = await project();
    expect((await run("install-into", "gemini", "--user")).code).toBe(0);
    const written = JSON.parse(await readFile(join(home, ".gemini", "settings.json"), "utf8"));
    expect(Object.keys(written.hooks)).toEqual(events);
    await expect(readFile(join(root, ".claude", "settings.json"), "utf8")).rejects.toThrow();
    expect((await run("install-into", "claude")).code).toBe(0);
    expect((await run("uninstall-from", "claude")).code).toBe(0);
    expect(JSON.parse(await readFile(join(home, ".gemini", "settings.json"), "utf8"))).toEqual(written);
  });

  it("refuses --http (that agent has only command hooks) and an unknown agent, naming the ones it knows", async () => {
    const { run } = await project();
    const http = await run("install-into", "gemini", "--http");
    expect(http.code).not.toBe(0);
    expect(http.stderr).toContain("Gemini CLI runs only command hooks");
    const unknown = await run("install-into", "vim");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("claude (Claude Code), gemini (Gemini CLI)");
  });
});
