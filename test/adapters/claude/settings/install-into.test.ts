import { spawnSync } from "node:child_process";
import { lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";

// Until cli/commands/index.ts lists them, the commands under test are added here (once, by name).
vi.mock("../../../../cli/commands/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../../cli/commands/index.js")>();
  const mine = [
    (await import("../../../../cli/commands/agents/install-into.js")).default,
    (await import("../../../../cli/commands/agents/uninstall-from.js")).default,
  ];
  const names = new Set(mine.map((command) => command.name));
  return { commands: [...original.commands.filter((command) => !names.has(command.name)), ...mine] };
});

const events = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
];

/** Settings as a user keeps them: their own hooks, other fields, two-space JSON. */
const userSettings = {
  model: "opus",
  permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] },
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [{ type: "command", command: "python3 .claude/hooks/bash_guard.py", timeout: 10 }],
      },
      { matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write", timeout: 30 }] },
    ],
    Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
  },
  env: { FOO: "1" },
};
const asWritten = (data: object) => `${JSON.stringify(data, null, 2)}\n`;

async function project(settings?: string | object) {
  const root = await workspace({ "hookyard.json": {} });
  const file = join(root, ".claude", "settings.json");
  if (settings !== undefined) {
    await mkdir(join(root, ".claude"), { recursive: true });
    await writeFile(file, typeof settings === "string" ? settings : asWritten(settings));
  }
  const home = await tempDir();
  const run = (...args: string[]) => runCli(args, { cwd: root, env: { HOME: home } });
  return { root, file, home, run };
}

type Hook = { type: string; command?: string; url?: string; headers?: Record<string, string> };
type Groups = Array<{ matcher?: string; hooks: Hook[] }>;

async function hooksIn(file: string): Promise<Record<string, Groups>> {
  return JSON.parse(await readFile(file, "utf8")).hooks;
}

const ours = (hook: Hook) =>
  hook.command?.includes("# added by hookyard install-into") || hook.headers !== undefined;

describe("hookyard install-into claude", () => {
  it("refuses the tool call and the prompt when hookyard cannot run at all (its bin gone), and only there", async () => {
    const { file, run } = await project({});
    expect((await run("install-into", "claude")).code).toBe(0);
    const hooks = await hooksIn(file);
    const commandAt = (event: string) =>
      (hooks[event]?.flatMap((g) => g.hooks).find(ours)?.command ?? "").replace(
        /\S*\/bin\/hookyard\.js/,
        "/nowhere/bin/hookyard.js",
      );
    for (const event of ["PreToolUse", "UserPromptSubmit"]) {
      const ran = spawnSync("sh", ["-c", commandAt(event)], { input: "{}", encoding: "utf8" });
      // Exit 2 is that agent's refusal; node's own error is the reason it shows.
      expect(ran.status, event).toBe(2);
      expect(ran.stderr, event).toContain("/nowhere/bin/hookyard.js");
    }
    // At Stop, exit 2 would ask for another turn: there a failure stays a failure.
    const stop = spawnSync("sh", ["-c", commandAt("Stop")], { input: "{}", encoding: "utf8" });
    expect(stop.status).not.toBe(2);
  });

  it("adds one hookyard entry per mapped event after the user's own hooks, which keep their order", async () => {
    const { file, run } = await project(userSettings);
    const result = await run("install-into", "claude");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`added hookyard for 10 events (${events.join(", ")})`);

    const written = JSON.parse(await readFile(file, "utf8"));
    expect(Object.keys(written)).toEqual(["model", "permissions", "hooks", "env"]);
    expect(written.permissions).toEqual(userSettings.permissions);
    expect(written.env).toEqual(userSettings.env);
    expect(Object.keys(written.hooks)).toEqual([
      "PreToolUse",
      "Stop",
      ...events.filter((e) => !["PreToolUse", "Stop"].includes(e)),
    ]);
    // The user's groups first, untouched; ours appended as a group of its own.
    expect(written.hooks.PreToolUse.slice(0, 2)).toEqual(userSettings.hooks.PreToolUse);
    expect(written.hooks.Stop[0]).toEqual(userSettings.hooks.Stop[0]);
    for (const event of events) {
      const groups: Groups = written.hooks[event];
      const mine = groups.flatMap((g) => g.hooks).filter(ours);
      expect(mine, event).toHaveLength(1);
      expect(mine[0]?.command).toMatch(
        new RegExp(
          `^\\S*node\\S* \\S*/bin/hookyard\\.js exec --profile claude ${event}${["PreToolUse", "UserPromptSubmit"].includes(event) ? " \\|\\| exit 2" : ""} # added by hookyard install-into$`,
        ),
      );
    }
    expect(written.hooks.PreToolUse[2]).toMatchObject({ matcher: "*" });
    expect(written.hooks.SessionStart[0]).not.toHaveProperty("matcher");
    // That agent cancels SessionEnd hooks after 1.5 s unless one asks for more: ours asks for 10.
    expect(written.hooks.SessionEnd[0].hooks[0].timeout).toBe(10);
    for (const event of events.filter((e) => e !== "SessionEnd")) {
      expect(written.hooks[event].at(-1).hooks[0], event).not.toHaveProperty("timeout");
    }
    // Two-space JSON, as the file was.
    expect(await readFile(file, "utf8")).toBe(asWritten(written));
  });

  it("runs its command from any folder: absolute node and bin, no PATH needed", async () => {
    const { file, run } = await project();
    await run("install-into", "claude");
    const command = (await hooksIn(file)).PreToolUse?.[0]?.hooks[0]?.command as string;
    const launcher = command.slice(0, command.indexOf(" exec --profile"));
    const elsewhere = await tempDir();
    const result = spawnSync("/bin/sh", ["-c", `${launcher} --version`], {
      cwd: elsewhere,
      env: { PATH: "" },
    });
    expect(result.stderr.toString()).toBe("");
    expect(result.stdout.toString()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("is idempotent: a second run adds nothing and leaves the file byte for byte", async () => {
    const { file, run } = await project(userSettings);
    await run("install-into", "claude");
    const once = await readFile(file, "utf8");
    const again = await run("install-into", "claude");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("hookyard is already in");
    expect(again.stdout).toContain("for all 10 events: nothing to change");
    expect(await readFile(file, "utf8")).toBe(once);
  });

  it("--http routes every event to the daemon with the token from an env var; switching back replaces, never duplicates", async () => {
    const { file, run } = await project(userSettings);
    await run("install-into", "claude");
    const command = (await hooksIn(file)).SessionStart?.[0]?.hooks[0];
    const http = await run("install-into", "claude", "--http", "--port", "5055");
    expect(http.code, http.stderr).toBe(0);
    // SessionStart stays a command: that agent calls no http hook there.
    expect(http.stdout).toContain("updated hookyard for 9 events");
    expect(http.stdout).toContain(
      "SessionStart runs `hookyard exec` instead: Claude Code calls no http hook there.",
    );
    expect(http.stdout).toContain("hookyard serve --port 5055");
    // That agent lets every event through when the daemon is down: said where the choice is made.
    expect(http.stdout).toContain("warning: Claude Code itself fails open on http hooks");
    expect(http.stdout).toContain("every event goes through unguarded");
    const hooks = await hooksIn(file);
    for (const event of events.filter((e) => e !== "SessionStart")) {
      const mine = (hooks[event] as Groups).flatMap((g) => g.hooks).filter(ours);
      expect(mine).toEqual([
        {
          type: "http",
          url: `http://127.0.0.1:5055/claude/${event}`,
          headers: {
            Authorization: "Bearer $HOOKYARD_SERVE_TOKEN",
            "X-Hookyard-Installed-By": "hookyard install-into",
          },
          allowedEnvVars: ["HOOKYARD_SERVE_TOKEN"],
          ...(event === "SessionEnd" ? { timeout: 10 } : {}),
        },
      ]);
    }
    expect((hooks.SessionStart as Groups).flatMap((g) => g.hooks).filter(ours)).toEqual([command]);
    expect(hooks.PreToolUse?.slice(0, 2)).toEqual(userSettings.hooks.PreToolUse);

    await run("install-into", "claude");
    const back = await hooksIn(file);
    expect(
      (back.PreToolUse as Groups)
        .flatMap((g) => g.hooks)
        .filter(ours)
        .map((h) => h.type),
    ).toEqual(["command"]);
  });

  it("an entry left by another hookyard (a moved install) is updated in place", async () => {
    const stale = {
      hooks: {
        PreToolUse: [
          {
            matcher: "*",
            hooks: [
              {
                type: "command",
                command:
                  "/old/node /old/bin/hookyard.js exec --profile claude PreToolUse # added by hookyard install-into",
              },
            ],
          },
          { matcher: "Bash", hooks: [{ type: "command", command: "mine.sh" }] },
          // A copy (a settings file merged by hand): hookyard would run twice per event.
          {
            hooks: [
              {
                type: "http",
                url: "http://x",
                headers: { "X-Hookyard-Installed-By": "hookyard install-into" },
              },
            ],
          },
        ],
      },
    };
    const { file, run } = await project(stale);
    const result = await run("install-into", "claude");
    expect(result.stdout).toContain("updated hookyard for 1 event (PreToolUse)");
    const hooks = await hooksIn(file);
    expect(hooks.PreToolUse).toHaveLength(2);
    expect(hooks.PreToolUse?.[0]?.hooks[0]?.command).toMatch(
      /\/bin\/hookyard\.js exec --profile claude PreToolUse \|\| exit 2 #/,
    );
    expect(hooks.PreToolUse?.[0]?.hooks[0]?.command).not.toContain("/old/");
    expect(hooks.PreToolUse?.[1]).toEqual(stale.hooks.PreToolUse[1]);
  });

  it("--dry-run prints a unified diff and writes nothing", async () => {
    const { file, run } = await project(userSettings);
    const before = await readFile(file, "utf8");
    const result = await run("install-into", "claude", "--dry-run");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`--- ${file}\n+++ ${file}\n@@ `);
    expect(result.stdout).toMatch(/^\+ {8}"matcher": "\*",$/m);
    expect(result.stdout).toMatch(
      /^\+ {12}"command": ".* exec --profile claude PreToolUse \|\| exit 2 # added by hookyard install-into"$/m,
    );
    expect(result.stdout).toMatch(/^ {5}"Stop": \[$/m);
    expect(result.stdout).toContain("dry run: nothing written to");
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("--dry-run on a project without settings creates neither the file nor .claude/", async () => {
    const { root, run } = await project();
    const result = await run("install-into", "claude", "--dry-run");
    expect(result.stdout).toContain("--- /dev/null");
    expect(result.stdout).toContain('+  "hooks": {');
    await expect(stat(join(root, ".claude"))).rejects.toThrow(/ENOENT/);
  });

  it("--dry-run on a settings file of thousands of lines still answers, quickly", async () => {
    const big = {
      ...userSettings,
      permissions: { allow: Array.from({ length: 3_000 }, (_, i) => `Bash(tool-${i}:*)`) },
    };
    const { file, run } = await project(big);
    const started = Date.now();
    const result = await run("install-into", "claude", "--dry-run");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`--- ${file}`);
    expect(result.stdout).toContain("exec --profile claude Notification # added by hookyard install-into");
  });

  it("refuses a file that is not JSON, names it, and leaves it untouched", async () => {
    const broken = '{\n  "hooks": {\n    "PreToolUse": [\n  // a comment\n}\n';
    const { file, run } = await project(broken);
    const result = await run("install-into", "claude");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`hookyard: CLI_ERR_AGENT_SETTINGS: ${file} is not valid JSON`);
    expect(result.stderr).toContain("nothing was changed");
    expect(await readFile(file, "utf8")).toBe(broken);
  });

  it("refuses settings whose hooks are not in that agent's shape", async () => {
    for (const [settings, why] of [
      [{ hooks: [] }, '"hooks" must be an object of events'],
      [
        { hooks: { PreToolUse: { matcher: "Bash" } } },
        '"hooks.PreToolUse" must be an array of matcher groups',
      ],
      [{ hooks: { Stop: [{ command: "x" }] } }, '"hooks.Stop[0]" must be an object with a "hooks" array'],
      [[1, 2], "must hold a JSON object"],
    ] as const) {
      const { file, run } = await project(settings);
      const before = await readFile(file, "utf8");
      const result = await run("install-into", "claude");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(why);
      expect(await readFile(file, "utf8")).toBe(before);
    }
  });

  it("--user writes under $HOME and leaves the project alone", async () => {
    const { root, home, run } = await project();
    const result = await run("install-into", "claude", "--user");
    expect(result.code, result.stderr).toBe(0);
    const hooks = await hooksIn(join(home, ".claude", "settings.json"));
    expect(Object.keys(hooks)).toEqual(events);
    await expect(stat(join(root, ".claude"))).rejects.toThrow(/ENOENT/);
  });

  it("keeps the file's mode, its indentation, and a symlink to a dotfiles folder", async () => {
    const { root, file, run } = await project();
    const dotfiles = await tempDir();
    const real = join(dotfiles, "claude-settings.json");
    await writeFile(real, '{\n    "model": "opus"\n}', { mode: 0o600 });
    await mkdir(join(root, ".claude"), { recursive: true });
    await symlink(real, file);
    await run("install-into", "claude");
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(await readlink(file)).toBe(real);
    expect((await stat(real)).mode & 0o777).toBe(0o600);
    const text = await readFile(real, "utf8");
    expect(text).toMatch(/^ {4}"model": "opus",$/m);
    expect(text.endsWith("}")).toBe(true);
  });

  it("a symlink whose target does not exist yet stays a symlink, and its target is written", async () => {
    const { root, file, run } = await project();
    const dotfiles = await tempDir();
    const real = join(dotfiles, "nested", "claude-settings.json");
    await mkdir(join(root, ".claude"), { recursive: true });
    await symlink(real, file);
    await run("install-into", "claude");
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(real, "utf8")).hooks.PreToolUse).toHaveLength(1);
  });

  it("usage errors: another agent, or --project with --user, or --port without --http", async () => {
    const { run } = await project();
    for (const args of [
      ["install-into", "cursor"],
      ["install-into", "claude", "--project", "--user"],
      ["install-into", "claude", "--port", "5000"],
      ["install-into", "claude", "--http", "--port", "99999"],
    ]) {
      const result = await run(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/CLI_ERR_USAGE/);
    }
  });
});

describe("hookyard uninstall-from claude", () => {
  it("removes exactly what install-into added: the file is byte for byte what it was", async () => {
    const { file, run } = await project(userSettings);
    const before = await readFile(file, "utf8");
    await run("install-into", "claude");
    const result = await run("uninstall-from", "claude");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("removed hookyard from 10 events");
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("removes http entries too, and leaves a settings file that had no hooks without a hooks field", async () => {
    const { file, run } = await project({ model: "opus" });
    await run("install-into", "claude", "--http");
    await run("uninstall-from", "claude");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ model: "opus" });
  });

  it("keeps a hook the user added to hookyard's group, and the user's own empty groups", async () => {
    const { file, run } = await project({ hooks: { Notification: [{ hooks: [] }] } });
    await run("install-into", "claude");
    const data = JSON.parse(await readFile(file, "utf8"));
    data.hooks.PreToolUse[0].hooks.push({ type: "command", command: "echo mine" });
    await writeFile(file, asWritten(data));
    await run("uninstall-from", "claude");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      hooks: {
        Notification: [{ hooks: [] }],
        PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "echo mine" }] }],
      },
    });
  });

  it("never removes a hook that only looks like hookyard's (the user's own `hookyard exec` line)", async () => {
    const own = {
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: "hookyard exec --profile claude PreToolUse" }] }],
      },
    };
    const { file, run } = await project(own);
    const result = await run("uninstall-from", "claude");
    expect(result.stdout).toContain("no hookyard entries in");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(own);
  });

  it("--dry-run shows the removal and writes nothing; --user works on $HOME; a missing file is nothing to do", async () => {
    const { home, run } = await project();
    const missing = await run("uninstall-from", "claude", "--user");
    expect(missing.code).toBe(0);
    expect(missing.stdout).toContain("no hookyard entries in");
    await run("install-into", "claude", "--user");
    const userFile = join(home, ".claude", "settings.json");
    const installed = await readFile(userFile, "utf8");
    const dry = await run("uninstall-from", "claude", "--user", "--dry-run");
    expect(dry.stdout).toMatch(/^-.*exec --profile claude Notification # added by hookyard install-into/m);
    expect(await readFile(userFile, "utf8")).toBe(installed);
  });

  it("refuses a file that is not JSON and leaves it untouched", async () => {
    const { file, run } = await project("not json at all");
    const result = await run("uninstall-from", "claude");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_AGENT_SETTINGS");
    expect(await readFile(file, "utf8")).toBe("not json at all");
  });
});
