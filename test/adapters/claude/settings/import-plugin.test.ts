import { spawnSync } from "node:child_process";
import { cp, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { handleClaudeEvent } from "../../../../adapters/claude/protocol/handle.js";
import { expandPluginRoot } from "../../../../adapters/claude/settings/shell-words.js";
import { type Hooks, loadHooks } from "../../../../index.js";
import { toolBefore } from "../../../helpers/ctx.js";
import { recordingLogger } from "../../../helpers/logger.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";
import { noBash, noPython } from "../hook-scripts/command-profile-helpers.js";

// Until cli/commands/index.ts lists it, the command under test is added here (once, by name).
vi.mock("../../../../cli/commands/index.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../../cli/commands/index.js")>();
  const mine = (await import("../../../../cli/commands/agents/import.js")).default;
  return { commands: [...original.commands.filter((command) => command.name !== mine.name), mine] };
});

const fixturePlugin = fileURLToPath(new URL("../fixtures/claude-plugins/commit-guard/", import.meta.url));

/** A copy of the plugin fixture in a temp folder (with a space in its path), `edit` applied to its hooks.json. */
async function plugin(edit?: (hooks: Record<string, unknown>) => void): Promise<string> {
  const dir = join(await tempDir(), "my plugins", "commit-guard");
  await cp(fixturePlugin, dir, { recursive: true });
  if (edit) {
    const file = join(dir, "hooks", "hooks.json");
    const data = JSON.parse(await readFile(file, "utf8"));
    edit(data.hooks);
    await writeFile(file, JSON.stringify(data, null, 2));
  }
  return dir;
}

async function project(config?: object) {
  const root = await workspace(config === undefined ? {} : { "hookyard.json": config });
  const run = (...args: string[]) => runCli(args, { cwd: root, env: {} });
  const read = async () => JSON.parse(await readFile(join(root, "hookyard.json"), "utf8"));
  return { root, run, read };
}

async function loadImported(root: string): Promise<Hooks> {
  return loadHooks({ cwd: root, logger: recordingLogger() });
}

describe("hookyard import claude-plugin", () => {
  it("turns each command hook into a claude-profile hook, with the plugin's folder written out", async () => {
    const dir = await plugin();
    const { run, read } = await project({ rules: [] });
    const result = await run("import", "claude-plugin", dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`imported 2 hooks from plugin "commit-guard" (${dir}):`);
    expect((await read()).rules).toEqual([
      {
        name: "commit-guard.pre-tool-use.1",
        engine: "command",
        profile: "claude",
        // The folder has a space: written out as one shell word, as the script path must stay one argument.
        command: `python3 '${dir}'/hooks/scripts/check_git.py`,
        matcher: "Bash",
        events: ["tool_before"],
        env: { CLAUDE_PLUGIN_ROOT: dir },
        timeoutMs: 10_000,
      },
      {
        name: "commit-guard.session-start.1",
        engine: "command",
        profile: "claude",
        command: `bash "${dir}/hooks/scripts/session_note.sh"`,
        matcher: "startup|resume",
        events: ["agent_before"],
        env: { CLAUDE_PLUGIN_ROOT: dir },
      },
    ]);
  });

  it.skipIf(noPython !== undefined || noBash !== undefined)(
    `the imported hooks run: the plugin's scripts block, deny and add context${noPython || noBash ? ` (skipped: ${noPython ?? noBash})` : ""}`,
    async () => {
      const dir = await plugin();
      const { root, run } = await project();
      expect((await run("import", "claude-plugin", dir)).code).toBe(0);
      const hooks = await loadImported(root);
      try {
        expect(hooks.problems).toEqual([]);
        const noVerify = await hooks.dispatch(
          "tool_before",
          toolBefore({ args: { command: "git commit --no-verify -m wip" } }),
        );
        expect(noVerify.blockedBy).toEqual({
          hook: "commit-guard.pre-tool-use.1",
          reason: "Commits must run the repository's hooks: drop --no-verify",
        });
        const force = await hooks.dispatch(
          "tool_before",
          toolBefore({ args: { command: "git push --force origin main" } }),
        );
        expect(force.blockedBy?.reason).toBe(
          "force-push to main is not allowed; push a branch and open a pull request",
        );
        const fine = await hooks.dispatch(
          "tool_before",
          toolBefore({ args: { command: "git push origin feature" } }),
        );
        expect(fine.verdict).toBe("allow");
        // The matcher "Bash" keeps it away from other tools: no process, no decision.
        const read = await hooks.dispatch(
          "tool_before",
          toolBefore({ tool: "read_file", args: { path: "--no-verify" } }),
        );
        expect(read.runs.find((r) => r.hook === "commit-guard.pre-tool-use.1")?.effects).toEqual([]);

        const start = await hooks.dispatch("agent_before", {
          sessionId: "s1",
          cwd: root,
          config: {},
          depth: 0,
        });
        expect(start.injects).toEqual([
          {
            hook: "commit-guard.session-start.1",
            text: "commit-guard is active; protected branches: main,release",
          },
        ]);
      } finally {
        await hooks.close();
      }
    },
  );

  it.skipIf(noPython !== undefined)(
    `behind hookyard exec, the plugin's hook answers that agent as it would have itself${noPython ? ` (skipped: ${noPython})` : ""}`,
    async () => {
      const dir = await plugin();
      const { root, run } = await project();
      expect((await run("import", "claude-plugin", dir)).code).toBe(0);
      const hooks = await loadImported(root);
      try {
        const input = {
          session_id: "abc",
          transcript_path: "/tmp/t.jsonl",
          cwd: root,
          permission_mode: "default",
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: "git push -f origin release", description: "push" },
          tool_use_id: "toolu_9",
        };
        const answer = await handleClaudeEvent(hooks, "PreToolUse", input);
        expect(answer.exitCode).toBe(0);
        expect(answer.body.hookSpecificOutput).toMatchObject({
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining(
            "force-push to release is not allowed; push a branch and open a pull request",
          ),
        });
      } finally {
        await hooks.close();
      }
    },
  );

  it("keeps hookyard.json's other fields and entries, in their order", async () => {
    const dir = await plugin();
    const config = {
      registry: "http://127.0.0.1:4873",
      rules: [{ name: "house-style", engine: "prompt", events: ["agent_before"], text: "English." }],
      hooks: { "audit-log": { enabled: false } },
    };
    const { run, read } = await project(config);
    await run("import", "claude-plugin", dir);
    const after = await read();
    expect(Object.keys(after)).toEqual(["registry", "rules", "hooks"]);
    expect(after.rules[0]).toEqual(config.rules[0]);
    expect(after.rules.map((r: { name: string }) => r.name)).toEqual([
      "house-style",
      "commit-guard.pre-tool-use.1",
      "commit-guard.session-start.1",
    ]);
    expect(after.hooks).toEqual(config.hooks);
  });

  it("skips what is already imported: a second run changes nothing", async () => {
    const dir = await plugin();
    const { root, run } = await project();
    await run("import", "claude-plugin", dir);
    const once = await readFile(join(root, "hookyard.json"), "utf8");
    const again = await run("import", "claude-plugin", dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "already in hookyard.json: commit-guard.pre-tool-use.1 (as commit-guard.pre-tool-use.1)",
    );
    expect(again.stdout).toContain('nothing to import from plugin "commit-guard"');
    expect(await readFile(join(root, "hookyard.json"), "utf8")).toBe(once);
  });

  it("--dry-run prints the diff of hookyard.json and writes nothing", async () => {
    const dir = await plugin();
    const { root, run } = await project();
    const result = await run("import", "claude-plugin", dir, "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`--- /dev/null\n+++ ${join(root, "hookyard.json")}\n@@ -0,0 +1,`);
    expect(result.stdout).toContain('+      "name": "commit-guard.pre-tool-use.1",');
    expect(result.stdout).toContain("would import 2 hooks");
    await expect(stat(join(root, "hookyard.json"))).rejects.toThrow(/ENOENT/);
  });

  it("refuses a plugin with hooks hookyard cannot run, naming each; nothing is written", async () => {
    const dir = await plugin((hooks) => {
      hooks.Stop = [{ hooks: [{ type: "prompt", prompt: "Did the tests run?" }] }];
      hooks.PermissionRequest = [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }];
      (hooks.SessionStart as Array<{ hooks: object[] }>)[0]?.hooks.push({
        type: "command",
        command: "x",
        once: true,
      });
    });
    const { root, run } = await project({ rules: [] });
    const before = await readFile(join(root, "hookyard.json"), "utf8");
    const result = await run("import", "claude-plugin", dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'CLI_ERR_PLUGIN_INVALID: plugin "commit-guard" has hooks hookyard cannot run',
    );
    expect(result.stderr).toContain(
      'Stop[0].hooks[0]: a "prompt" hook needs a model hookyard can call: pass --model openai:<model>',
    );
    expect(result.stderr).toContain(
      "PermissionRequest[0].hooks[0]: hookyard has no point for the PermissionRequest event",
    );
    expect(result.stderr).toContain('SessionStart[0].hooks[1]: its "once" has no equivalent in hookyard');
    expect(await readFile(join(root, "hookyard.json"), "utf8")).toBe(before);

    const rest = await run("import", "claude-plugin", dir, "--skip-unsupported");
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain('hookyard: warning: not imported: Stop[0].hooks[0]: a "prompt" hook');
    expect(rest.stdout).toContain("imported 2 hooks");
  });

  it("a SubagentStop hook runs only at a subagent's stop; async hooks run in the background; timeouts are capped", async () => {
    const dir = await plugin((hooks) => {
      hooks.SubagentStop = [{ hooks: [{ type: "command", command: "true", timeout: 5 }] }];
      hooks.PostToolUse = [
        { matcher: "*", hooks: [{ type: "command", command: "log.sh", async: true, timeout: 3600 }] },
      ];
    });
    const { run, read } = await project();
    expect((await run("import", "claude-plugin", dir)).code).toBe(0);
    const entries = (await read()).rules as Array<Record<string, unknown>>;
    expect(entries.find((r) => r.name === "commit-guard.subagent-stop.1")).toMatchObject({
      events: ["turn_after"],
      matcher: { "agent.event": "^SubagentStop$" },
      timeoutMs: 5_000,
    });
    const post = entries.find((r) => r.name === "commit-guard.post-tool-use.1");
    expect(post).toMatchObject({ events: ["tool_after"], mode: "background", timeoutMs: 600_000 });
    expect(post).not.toHaveProperty("matcher");
  });

  it("refuses a name that a different hook already has (the plugin changed), and an invalid matcher", async () => {
    const dir = await plugin();
    const taken = {
      rules: [
        { name: "commit-guard.pre-tool-use.1", engine: "command", events: ["tool_before"], command: "old" },
      ],
    };
    const { run } = await project(taken);
    const clash = await run("import", "claude-plugin", dir);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(
      'already has a hook named "commit-guard.pre-tool-use.1" that runs something else',
    );

    const badMatcher = await plugin((hooks) => {
      (hooks.PreToolUse as Array<{ matcher: string }>)[0] = {
        ...(hooks.PreToolUse as object[])[0],
        matcher: "Bash(",
      } as never;
    });
    const fresh = await project();
    const bad = await fresh.run("import", "claude-plugin", badMatcher);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /commit-guard\.pre-tool-use\.1 cannot be a hookyard\.json entry \(matcher: matcher "Bash\(" is not a valid JavaScript regular expression/,
    );

    // A plugin's matcher runs in hookyard's process on every tool call: one that can take
    // exponential time (ReDoS) is refused like an invalid one, by name.
    const redos = await plugin((hooks) => {
      (hooks.PreToolUse as Array<{ matcher: string }>)[0] = {
        ...(hooks.PreToolUse as object[])[0],
        matcher: "(B|Ba|Bas|Bash)+$",
      } as never;
    });
    const untouched = await project();
    const refused = await untouched.run("import", "claude-plugin", redos);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /commit-guard\.pre-tool-use\.1 cannot be a hookyard\.json entry \(matcher: matcher "\(B\|Ba\|Bas\|Bash\)\+\$" repeats a choice whose branches can start with the same character/,
    );
  });

  it("reads a hooks.json without the plugin wrapper, and names the hooks after the folder without a manifest", async () => {
    const dir = join(await tempDir(), "Lint Tools!");
    await mkdir(join(dir, "hooks"), { recursive: true });
    await writeFile(
      join(dir, "hooks", "hooks.json"),
      JSON.stringify({
        PostToolUse: [
          { matcher: "Write|Edit", hooks: [{ type: "command", command: "$CLAUDE_PLUGIN_ROOT/lint.sh" }] },
        ],
      }),
    );
    const { run, read } = await project();
    expect((await run("import", "claude-plugin", dir)).code).toBe(0);
    expect((await read()).rules).toEqual([
      {
        name: "lint-tools.post-tool-use.1",
        engine: "command",
        profile: "claude",
        command: `'${dir}'/lint.sh`,
        matcher: "Write|Edit",
        events: ["tool_after"],
        env: { CLAUDE_PLUGIN_ROOT: dir },
      },
    ]);
  });

  it("says what is wrong with a folder that is not a plugin, or a hooks.json that is not JSON", async () => {
    const { root, run } = await project();
    const none = await run("import", "claude-plugin", root);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `CLI_ERR_PLUGIN_INVALID: ${join(root, "hooks", "hooks.json")} does not exist: is this a plugin folder?`,
    );
    const dir = await plugin();
    await writeFile(join(dir, "hooks", "hooks.json"), "{ hooks: ");
    const broken = await run("import", "claude-plugin", dir);
    expect(broken.stderr).toContain("hooks.json is not valid JSON");
  });
});

// biome-ignore lint/suspicious/noTemplateCurlyInString: that agent's variable, as a plugin's command writes it
const rootVar = "${CLAUDE_PLUGIN_ROOT}";

describe("CLAUDE_PLUGIN_ROOT in a plugin's command", () => {
  const cases: Array<[string, string, string]> = [
    [`${rootVar}/x.sh`, "/opt/p", "/opt/p/x.sh"],
    ["$CLAUDE_PLUGIN_ROOT/x.sh --flag", "/opt/p", "/opt/p/x.sh --flag"],
    [`${rootVar}/x.sh`, "/opt/my p", "'/opt/my p'/x.sh"],
    [`bash "${rootVar}/x.sh"`, '/opt/a "b" $c', 'bash "/opt/a \\"b\\" \\$c/x.sh"'],
    [`echo '${rootVar}'`, "/opt/it's", "echo '/opt/it'\\''s'"],
    ["$CLAUDE_PLUGIN_ROOTS/x", "/opt/p", "$CLAUDE_PLUGIN_ROOTS/x"],
    [`echo \\"${rootVar}`, "/opt/my p", `echo \\"'/opt/my p'`],
  ];
  for (const [command, root, expected] of cases) {
    it(`${command} with ${root} is ${expected}`, () => {
      expect(expandPluginRoot(command, root)).toBe(expected);
    });
  }

  it("gives the shell the folder as one argument, wherever it stands", () => {
    const root = '/opt/a b/it\'s "here" $HOME `x`';
    for (const command of [`printf %s ${rootVar}`, `printf %s "${rootVar}"`, `printf %s '${rootVar}'`]) {
      const out = spawnSync("sh", ["-c", expandPluginRoot(command, root)]).stdout.toString();
      expect(out, command).toBe(root);
    }
  });
});
