import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { codexTrustHash } from "../../../adapters/codex/settings/trust.js";
import { runCli } from "../../helpers/run-cli.js";
import { tempDir, workspace } from "../../helpers/temp.js";

vi.mock("../../../cli/commands/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../cli/commands/index.js")>();
  const mine = [
    (await import("../../../cli/commands/agents/install-into.js")).default,
    (await import("../../../cli/commands/agents/uninstall-from.js")).default,
    (await import("../../../cli/commands/agents/status.js")).default,
  ];
  const names = new Set(mine.map((command) => command.name));
  return { commands: [...original.commands.filter((command) => !names.has(command.name)), ...mine] };
});

const events = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
];

/** hooks.json as a Codex user keeps it: their own hook. */
const userHooks = {
  hooks: {
    PreToolUse: [{ matcher: "^Bash$", hooks: [{ type: "command", command: "./check.sh", timeout: 5 }] }],
  },
};
const asWritten = (data: object) => `${JSON.stringify(data, null, 2)}\n`;

async function project(hooks?: object) {
  const root = await workspace({ "hookyard.json": {} });
  const file = join(root, ".codex", "hooks.json");
  if (hooks !== undefined) {
    await mkdir(join(root, ".codex"), { recursive: true });
    await writeFile(file, asWritten(hooks));
  }
  const home = await tempDir();
  const codexHome = join(home, "codex-home");
  const env = { HOME: home, CODEX_HOME: codexHome };
  const run = (...args: string[]) => runCli(args, { cwd: root, env });
  return { root, file, home, codexHome, run };
}

type Hook = { type: string; command: string; timeout?: number };

describe("hookyard install-into codex", () => {
  it("adds a command hook per mapped event to .codex/hooks.json after the user's own, and says they must be trusted", async () => {
    const { file, run } = await project(userHooks);
    const result = await run("install-into", "codex");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`added hookyard for 7 events (${events.join(", ")})`);
    expect(result.stdout).toContain("only once you trust them");
    expect(result.stdout).toContain("/hooks");
    const written = JSON.parse(await readFile(file, "utf8"));
    expect(Object.keys(written.hooks)).toEqual(events);
    const before = written.hooks.PreToolUse as Array<{ matcher?: string; hooks: Hook[] }>;
    expect(before[0]).toEqual(userHooks.hooks.PreToolUse[0]);
    // No matcher: Codex reads one as a regex, and none is every tool.
    expect(before[1]?.matcher).toBeUndefined();
    const hook = before[1]?.hooks[0] as Hook;
    expect(hook).toMatchObject({ type: "command", timeout: 30 });
    expect(hook.command).toContain(
      "exec --profile codex PreToolUse || exit 2 # added by hookyard install-into codex",
    );
    expect(hook.command).toContain(process.execPath);
    expect(written.hooks.UserPromptSubmit[0].hooks[0].command).toContain("UserPromptSubmit || exit 2 #");
    expect(written.hooks.PostToolUse[0].hooks[0].command).toMatch(
      /exec --profile codex PostToolUse # added by hookyard install-into codex$/,
    );
    expect(written.hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
  });

  it("fails closed where Codex can block: with hookyard's bin gone, the PreToolUse and UserPromptSubmit commands exit 2 (Codex's refusal), the others do not", async () => {
    const { file, run } = await project();
    expect((await run("install-into", "codex")).code).toBe(0);
    const written = JSON.parse((await readFile(file, "utf8")).replaceAll("/bin/hookyard.js", "/bin/gone.js"));
    const exitOf = async (event: string) => {
      const command = written.hooks[event][0].hooks[0].command as string;
      try {
        await promisify(execFile)("sh", ["-c", `${command} < /dev/null`]);
        return 0;
      } catch (error) {
        return (error as { code: number }).code;
      }
    };
    expect(await exitOf("PreToolUse")).toBe(2);
    expect(await exitOf("UserPromptSubmit")).toBe(2);
    expect(await exitOf("PostToolUse")).toBe(1);
  });

  it("is idempotent, and uninstall-from codex gives back the file byte for byte", async () => {
    const { file, run } = await project(userHooks);
    const original = await readFile(file, "utf8");
    expect((await run("install-into", "codex")).code).toBe(0);
    const once = await readFile(file, "utf8");
    const again = await run("install-into", "codex");
    expect(again.stdout).toContain("nothing to change");
    expect(await readFile(file, "utf8")).toBe(once);
    const removed = await run("uninstall-from", "codex");
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("removed hookyard from 7 events");
    expect(await readFile(file, "utf8")).toBe(original);
  });

  it("--dry-run prints a diff and writes nothing, not even .codex/", async () => {
    const { root, run } = await project();
    const result = await run("install-into", "codex", "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("--- /dev/null");
    expect(result.stdout).toContain('+    "PreToolUse": [');
    expect(result.stdout).toContain("dry run: nothing written to");
    await expect(readFile(join(root, ".codex", "hooks.json"), "utf8")).rejects.toThrow();
  });

  it("--user writes $CODEX_HOME/hooks.json; no other agent's file is touched; --http is refused", async () => {
    const { root, codexHome, run } = await project();
    expect((await run("install-into", "codex", "--user")).code).toBe(0);
    const written = JSON.parse(await readFile(join(codexHome, "hooks.json"), "utf8"));
    expect(Object.keys(written.hooks)).toEqual(events);
    await expect(readFile(join(root, ".codex", "hooks.json"), "utf8")).rejects.toThrow();
    await expect(readFile(join(root, ".claude", "settings.json"), "utf8")).rejects.toThrow();
    const http = await run("install-into", "codex", "--http");
    expect(http.code).not.toBe(0);
    expect(http.stderr).toContain("Codex runs only command hooks");
  });
});

describe("hookyard status, with hookyard installed into Codex", () => {
  it("says Codex has not trusted the hooks (so they do not run), exit 1, until a trust is recorded for each as it is now", async () => {
    const { file, codexHome, run } = await project();
    expect((await run("install-into", "codex")).code).toBe(0);
    const untrusted = await run("status");
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain(`NOT TRUSTED: Codex has not trusted hookyard's hooks in ${file}`);
    expect(untrusted.stdout).toContain("PreToolUse");
    const data = JSON.parse(await readFile(file, "utf8"));
    const records = events.map((event) => {
      const hook = data.hooks[event][0].hooks[0];
      const key = event.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase();
      return `[hooks.state."${file}:${key}:0:0"]\ntrusted_hash = "${codexTrustHash(event, undefined, hook)}"\n`;
    });
    await mkdir(codexHome, { recursive: true });
    // All but Stop's: one untrusted entry is still named.
    await writeFile(
      join(codexHome, "config.toml"),
      records.filter((_, i) => events[i] !== "Stop").join("\n"),
    );
    const partly = await run("status");
    expect(partly.stdout).toContain("NOT TRUSTED");
    expect(partly.stdout).toContain("(Stop;");
    await writeFile(join(codexHome, "config.toml"), records.join("\n"));
    const trusted = await run("status");
    expect(trusted.stdout).toContain("hookyard's 7 hooks in");
    expect(trusted.stdout).not.toContain("NOT TRUSTED");
  });

  it("hashes a hook as Codex 0.171 does (a hash that binary accepted as trusted)", () => {
    expect(
      codexTrustHash("Stop", undefined, { type: "command", command: "/tmp/cx/ws/dump.sh Stop", timeout: 30 }),
    ).toBe("sha256:55b0e93e79a2d096e43050bd7643acd0c85e4fc8ef6e3f38218a4a72cd0d2433");
  });
});
