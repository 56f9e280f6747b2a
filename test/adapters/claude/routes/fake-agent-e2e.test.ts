import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard, repoRoot } from "../../../helpers/cli.js";
import { installFixture } from "../../../helpers/lock-fixture.js";
import { tempDir, writeFiles } from "../../../helpers/temp.js";
import { startServerProcess } from "../../../registry/server-process.js";

/**
 * Issue 8's end to end: a fake agent that speaks the hook protocol drives `hookyard exec` (a process
 * per event) and then `hookyard serve` (http hooks), both routed by `install-into claude`, over one
 * workspace holding a trusted hook, a sandboxed community hook and a rules file. Both routes must
 * give the agent the same decisions.
 */

const trustedHook = `import { defineHook } from "hookyard";
export default defineHook({
  name: "no-force-push",
  matcher: { tool: "^bash$" },
  on: {
    tool_before(ctx) {
      if (/git\\s+push\\b.*--force/.test(String(ctx.args.command))) return { block: "no force pushes: push a branch instead" };
    },
  },
});
`;

const communityHook = `import { defineHook } from "hookyard";
export default defineHook({
  name: "timeout-prefix",
  on: {
    tool_before(ctx) {
      const command = String(ctx.args.command);
      if (!command.startsWith("timeout ")) ctx.args = { ...ctx.args, command: "timeout 30 " + command };
    },
  },
});
`;

const rulesFile = `---
name: no-env
event: tool_before
matcher: ^read_file$
action: block
conditions:
  - field: file_path
    operator: ends_with
    pattern: .env
---
Do not read .env files: they hold secrets.
`;

const events = (project: string) => [
  { event: "SessionStart", input: { source: "startup" } },
  { event: "UserPromptSubmit", input: { prompt: "tidy up the repo" } },
  {
    event: "PreToolUse",
    input: { tool_name: "Bash", tool_input: { command: "git push --force origin main" }, tool_use_id: "t1" },
  },
  {
    event: "PreToolUse",
    input: { tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "t2" },
  },
  {
    event: "PreToolUse",
    input: { tool_name: "Read", tool_input: { file_path: `${project}/.env` }, tool_use_id: "t3" },
  },
  {
    event: "PreToolUse",
    input: { tool_name: "Read", tool_input: { file_path: `${project}/README.md` }, tool_use_id: "t4" },
  },
  {
    event: "PostToolUse",
    input: {
      tool_name: "Read",
      tool_input: { file_path: `${project}/README.md` },
      tool_response: { content: "hi" },
      tool_use_id: "t4",
    },
  },
  { event: "Stop", input: { stop_hook_active: false } },
  { event: "SessionEnd", input: { reason: "exit" } },
];

function fakeAgent(project: string, env: NodeJS.ProcessEnv): Promise<Array<Record<string, unknown>>> {
  const agent = join(repoRoot, "test", "adapters", "claude", "fixtures", "fake-agent", "fake-agent.mjs");
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [agent, project, join(project, ".claude", "settings.json"), join(project, "events.json")],
      {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`fake agent exited ${code}: ${stderr}`));
      else
        resolve(
          stdout
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line)),
        );
    });
  });
}

describe("a coding agent with hookyard as its hook host", () => {
  it("gets the same decisions through exec and through serve", { timeout: 180_000 }, async () => {
    const project = await tempDir();
    const home = await tempDir();
    const env = { HOME: home, HOOKYARD_CONFIG: join(home, "config.json") };
    await writeFiles(project, {
      ".hookyard/hooks/no-force-push.ts": trustedHook,
      ".hookyard/rules/no-env.md": rulesFile,
      "README.md": "hi\n",
      ".env": "SECRET=1\n",
      "events.json": events(project),
    });
    await installFixture(project, [
      {
        name: "timeout-prefix",
        source: communityHook,
        hookyard: { events: ["tool_before"], matcher: { tool: "^bash$" }, effects: ["rewrite"] },
        grants: ["rewrite"],
      },
    ]);

    const viaCommand = await hookyard(["install-into", "claude", "--project"], { cwd: project, env });
    expect(viaCommand.code, viaCommand.stderr).toBe(0);
    const exec = await fakeAgent(project, env);

    const server = await startServerProcess(["serve", "--port", "0"], {
      cwd: project,
      env,
      timeoutMs: 30_000,
    });
    const port = new URL(server.url).port;
    const viaHttp = await hookyard(["install-into", "claude", "--project", "--http", "--port", port], {
      cwd: project,
      env,
    });
    expect(viaHttp.code, viaHttp.stderr).toBe(0);
    const settings = JSON.parse(await readFile(join(project, ".claude", "settings.json"), "utf8"));
    // Every event over http but SessionStart, at which that agent calls no http hook.
    for (const [event, groups] of Object.entries(
      settings.hooks as Record<string, Array<{ hooks: unknown[] }>>,
    )) {
      expect(JSON.stringify(groups).includes("exec --profile"), event).toBe(event === "SessionStart");
    }
    const token = (await readFile(join(project, ".hookyard", "serve.token"), "utf8")).trim();
    const served = await fakeAgent(project, { ...env, HOOKYARD_SERVE_TOKEN: token });
    server.child.kill("SIGTERM");

    expect(served).toEqual(exec);
    expect(exec.map((e) => e.event)).toEqual(events(project).map((e) => e.event));
    // The trusted workspace hook blocks the force push, and the agent is told why.
    expect(exec[2]).toMatchObject({ decision: "deny", reason: expect.stringContaining("no force pushes") });
    // The sandboxed community hook rewrites the command: the agent runs the whole new input.
    expect(exec[3]).toMatchObject({ decision: "allow", updatedInput: { command: "timeout 30 npm test" } });
    // The rules file blocks reading .env, with its message; README.md passes.
    expect(exec[4]).toMatchObject({
      decision: "deny",
      reason: expect.stringContaining("Do not read .env files"),
    });
    expect(exec[5]).toMatchObject({ decision: "allow" });
    expect(exec[5]?.updatedInput).toBeUndefined();
    for (const quiet of [exec[0], exec[1], exec[6], exec[7], exec[8]])
      expect(quiet).toMatchObject({ decision: "allow" });
    // Untouched, and the same: uninstall-from takes back exactly what install-into added.
    await writeFile(join(project, ".claude", "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    const removed = await hookyard(["uninstall-from", "claude", "--project"], { cwd: project, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(project, ".claude", "settings.json"), "utf8")).hooks ?? {}).toEqual(
      {},
    );
  });
});
