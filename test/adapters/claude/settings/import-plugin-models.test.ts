import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { handleClaudeEvent } from "../../../../adapters/claude/protocol/handle.js";
import { loadHooks } from "../../../../index.js";
import { recordingLogger } from "../../../helpers/logger.js";
import { completion, messagesOf, openAIStub, sendJson } from "../../../helpers/openai-stub.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";

const fixturePlugin = fileURLToPath(new URL("../fixtures/claude-plugins/commit-guard/", import.meta.url));

/** The plugin fixture (named commit-guard by its manifest) with a prompt hook on PreToolUse (Bash) and an agent hook on Stop, and no command hooks. */
async function modelPlugin(): Promise<string> {
  const dir = join(await tempDir(), "review-plugin");
  await cp(fixturePlugin, dir, { recursive: true });
  const hooks = {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [
          { type: "prompt", prompt: "Is this command safe? $ARGUMENTS", timeout: 20, model: "claude-haiku" },
        ],
      },
    ],
    Stop: [{ hooks: [{ type: "agent", prompt: "Check that the tests ran. $ARGUMENTS", timeout: 90 }] }],
  };
  await writeFile(join(dir, "hooks", "hooks.json"), JSON.stringify({ hooks }));
  return dir;
}

async function project() {
  const root = await workspace({ "hookyard.json": { rules: [] } });
  const run = (...args: string[]) => runCli(args, { cwd: root, env: {} });
  const read = async () => JSON.parse(await readFile(join(root, "hookyard.json"), "utf8"));
  return { root, run, read };
}

describe("hookyard import claude-plugin: prompt and agent hooks", () => {
  it("without --model they are refused, naming the flag; nothing is written", async () => {
    const dir = await modelPlugin();
    const { root, run } = await project();
    const before = await readFile(join(root, "hookyard.json"), "utf8");
    const result = await run("import", "claude-plugin", dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'PreToolUse[0].hooks[0]: a "prompt" hook needs a model hookyard can call: pass --model openai:<model>',
    );
    expect(result.stderr).toContain('Stop[0].hooks[0]: a "agent" hook needs a model hookyard can call');
    expect(await readFile(join(root, "hookyard.json"), "utf8")).toBe(before);
  });

  it("with --model a prompt hook becomes a judge hook and an agent hook an agent hook, and the judge guards that agent's tool call", async () => {
    const stub = await openAIStub((_, res) =>
      sendJson(res, completion('{"ok":false,"reason":"deletes the disk"}')),
    );
    const dir = await modelPlugin();
    const { root, run, read } = await project();
    const result = await run(
      "import",
      "claude-plugin",
      dir,
      "--model",
      "openai:judge-1",
      "--base-url",
      stub.url,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("imported 2 hooks");
    expect((await read()).rules).toEqual([
      {
        name: "commit-guard.pre-tool-use.1",
        engine: "judge",
        model: "openai:judge-1",
        baseUrl: stub.url,
        prompt: "Is this command safe? $ARGUMENTS",
        matcher: { "agent.tool": "^(?:Bash)$" },
        events: ["tool_before"],
        timeoutMs: 20_000,
      },
      {
        name: "commit-guard.stop.1",
        engine: "agent",
        model: "openai:judge-1",
        baseUrl: stub.url,
        instructions: "Check that the tests ran. $ARGUMENTS",
        events: ["turn_after"],
        timeoutMs: 90_000,
      },
    ]);

    const hooks = await loadHooks({ cwd: root, logger: recordingLogger(), prestart: false });
    try {
      expect(hooks.problems).toEqual([]);
      const input = (tool: string, tool_input: object) => ({
        session_id: "s1",
        transcript_path: "/tmp/t.jsonl",
        cwd: root,
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input,
        tool_use_id: "toolu_1",
      });
      const answer = await handleClaudeEvent(hooks, "PreToolUse", input("Bash", { command: "rm -rf /" }));
      expect(answer.body.hookSpecificOutput).toMatchObject({
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("deletes the disk"),
      });
      expect(stub.received).toHaveLength(1);
      const user = messagesOf(stub.received[0])[1]?.content;
      expect(user).toContain('"command":"rm -rf /"');
      // The matcher names that agent's tool: a Read is not judged.
      await handleClaudeEvent(hooks, "PreToolUse", input("Read", { file_path: "README.md" }));
      expect(stub.received).toHaveLength(1);
    } finally {
      await hooks.close();
    }
  });

  it("--model must be one hookyard knows", async () => {
    const dir = await modelPlugin();
    const { run } = await project();
    const result = await run("import", "claude-plugin", dir, "--model", "claude-haiku");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--model claude-haiku is not understood: use openai:<model> or scripted:<file.json>",
    );
  });
});
