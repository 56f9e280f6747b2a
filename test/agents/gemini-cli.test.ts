import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type GeminiModel,
  type GeminiStep,
  geminiRequestText,
  startGeminiModel,
} from "../../bench/agents/fake-model/gemini.js";
import { hookyard } from "../helpers/cli.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { geminiCliPackage, installGeminiCli, runGemini } from "./harness/gemini-cli.js";
import { installRegistryGuard, registryGuardReason } from "./harness/registry-guard.js";
import { proves } from "./harness/support-table.js";
import { runtimeDir, sessionsLog, stopRuntimes } from "./harness/workspace-runtime.js";

/**
 * hookyard behind the real Gemini CLI (pinned in harness/gemini-cli.ts, installed by the test
 * itself into ~/.cache/hookyard/agents/, never a dependency), against a fake Gemini API on
 * 127.0.0.1 that scripts its tool calls and logs every request. Each test is a workspace with
 * `hookyard install-into gemini` (the exec route: that agent has no http hooks) and a trusted hook
 * file, and asserts what a user would notice: the file on disk, what the model was sent next.
 * docs/agents/README.md is the table of what these rows prove. Build first (dist/).
 */

const gemini = await installGeminiCli();
const skipReason = gemini.ok ? "" : gemini.reason;
if (!gemini.ok) {
  console.warn(
    `SKIPPED: Gemini CLI conformance (${geminiCliPackage.name}@${geminiCliPackage.version}): ${skipReason}`,
  );
}

/** The workspace's one hook file: a guard, a rewriter, a redactor, an injector, a stop check, a session log. */
function hookFile(root: string, guard: boolean): string {
  const log = JSON.stringify(join(root, "sessions.log"));
  return `import { appendFileSync } from "node:fs";
export default {
  name: "conformance",
  on: {
    agent_before(ctx) {
      appendFileSync(${log}, "start " + (ctx.agent?.source ?? "") + "\\n");
      ${guard ? 'return { inject: "the session context is SESSION-CONTEXT-OK" };' : ""}
    },
    agent_after(ctx) { appendFileSync(${log}, "end " + ctx.reason + "\\n"); },
    ${
      guard
        ? `tool_before(ctx) {
      const command = ctx.args.command ?? "";
      if (/\\brm\\b/.test(command) && command.includes("victim")) return { block: "victims are protected by hookyard" };
      if (command.includes("ORIGINAL")) ctx.args.command = command.replace("ORIGINAL", "REWRITTEN");
    },
    tool_after(ctx) {
      if (ctx.result.includes("SECRET-JSON-42")) ctx.result = ctx.result.replaceAll("SECRET-JSON-42", "[redacted]");
      else if (ctx.result.includes("SECRET-")) ctx.result = "[output redacted by hookyard]";
      if (ctx.result.includes("INJECT-ME")) return { inject: "the magic word is PINEAPPLE" };
    },
    turn_before(ctx) { if (/password/i.test(ctx.prompt)) return { block: "the prompt holds a password" }; },
    tool_error(ctx) { return { inject: "advice for " + ctx.tool + ": check the path" }; },
    turn_after(ctx) { if (ctx.answer === "I am done.") return { continue: "run the tests before you stop" }; },`
        : ""
    }
  },
};
`;
}

const models: GeminiModel[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((m) => m.close()));
  await stopRuntimes();
});

interface Workspace {
  root: string;
  env: NodeJS.ProcessEnv;
}

/** A workspace with hookyard installed into Gemini CLI's project settings. */
async function workspace(options: { guard?: boolean; files?: Record<string, string | object> } = {}) {
  const root = await tempDir();
  const runtime = await runtimeDir();
  await writeFiles(root, {
    "hookyard.json": {},
    ".hookyard/hooks/conformance.mjs": hookFile(root, options.guard ?? true),
    "victim.txt": "keep me\n",
    "json-secret.txt": "token=SECRET-JSON-42 INJECT-ME\n",
    "text-secret.txt": "token=SECRET-TEXT-7\n",
    "inject-only.txt": "nothing secret here, INJECT-ME\n",
    ...options.files,
  });
  const env: NodeJS.ProcessEnv = { XDG_RUNTIME_DIR: runtime, HOOKYARD_DAEMON_IDLE_MS: "20000" };
  const installed = await hookyard(["install-into", "gemini"], { cwd: root });
  expect(installed.code, installed.stderr).toBe(0);
  return { root, env } satisfies Workspace;
}

/** One `gemini -p` in the workspace against a fresh fake model scripted with `script`. */
async function drive(ws: Workspace, script: GeminiStep[], prompt = "Do the task.") {
  const model = await startGeminiModel(script);
  models.push(model);
  const run = await runGemini({
    script: gemini.script as string,
    cwd: ws.root,
    prompt,
    modelUrl: model.url,
    env: ws.env,
    timeoutMs: 150_000,
  });
  const turns = model.turns();
  const request = (n: number) => (turns[n] === undefined ? "" : geminiRequestText(turns[n]));
  const all = () => model.requests.map((r) => r.text).join("\n");
  return { model, run, turns, request, all, say: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

const shell = (command: string): GeminiStep => ({
  call: { name: "run_shell_command", args: { command, description: "run it" } },
});

const timeout = 300_000;

/** The options of a test that proves `rows` of docs/agents/README.md's table. */
const rows = (...proven: string[]) => ({
  timeout,
  meta: proves("gemini-cli", geminiCliPackage.version, { exec: proven }),
});

describe.skipIf(!gemini.ok)(`Gemini CLI ${geminiCliPackage.version} (real agent), route exec`, () => {
  it(
    "deny: the victim file survives and the next model request carries the reason; argument rewrite: the next call runs the rewritten command",
    rows("deny", "arg-rewrite", "inject-start"),
    async () => {
      const ws = await workspace();
      const { request, say } = await drive(ws, [shell("rm victim.txt"), shell("echo ORIGINAL > out.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(request(1), say).toContain(
        'Blocked by hook \\"conformance\\": victims are protected by hookyard',
      );
      // SessionStart's inject: that agent puts it before the prompt in a non-interactive run.
      expect(request(0), say).toContain("SESSION-CONTEXT-OK");
      expect(await readFile(join(ws.root, "out.txt"), "utf8").catch(() => ""), say).toBe("REWRITTEN\n");
    },
  );

  it(
    "deny and argument rewrite on each of exec's routes, forced: only the daemon (HOOKYARD_EXEC_ROUTE=daemon), never a daemon (inprocess)",
    rows("routes-forced"),
    async () => {
      const check = async (route: "daemon" | "inprocess") => {
        const ws = await workspace();
        ws.env.HOOKYARD_EXEC_ROUTE = route;
        const { request, say } = await drive(ws, [shell("rm victim.txt"), shell("echo ORIGINAL > out.txt")]);
        const where = `route ${route}\n${say}`;
        expect(existsSync(join(ws.root, "victim.txt")), where).toBe(true);
        expect(request(1), where).toContain("victims are protected by hookyard");
        expect(await readFile(join(ws.root, "out.txt"), "utf8").catch(() => ""), where).toBe("REWRITTEN\n");
      };
      await Promise.all([check("daemon"), check("inprocess")]);
    },
  );

  it(
    "a sandboxed community guard from the registry: the victim file survives, the next request carries its reason",
    rows("registry-guard"),
    async () => {
      const ws = await workspace({ guard: false });
      await installRegistryGuard(ws.root);
      const { request, say } = await drive(ws, [shell("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(request(1), say).toContain(registryGuardReason);
    },
  );

  it(
    "allow (control): with no guard the same call deletes the file; SessionStart and SessionEnd hooks run",
    rows("allow", "session"),
    async () => {
      const ws = await workspace({ guard: false });
      const { say } = await drive(ws, [shell("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(false);
      expect(await sessionsLog(ws.root), say).toMatch(/^start startup\nend exit\n$/);
    },
  );

  it(
    "result rewrite (a shell result, then read_file's): the model gets the redacted text, not the secret; inject: the next request carries the text; a failed tool fires tool_error, whose inject reaches the model",
    rows("result-rewrite", "inject-tool", "tool-error"),
    async () => {
      const ws = await workspace();
      const missing: GeminiStep = {
        call: { name: "read_file", args: { file_path: join(ws.root, "no-such-file.txt") } },
      };
      const read: GeminiStep = {
        call: { name: "read_file", args: { file_path: join(ws.root, "text-secret.txt") } },
      };
      const { request, all, say } = await drive(ws, [
        shell("cat json-secret.txt"),
        read,
        shell("cat inject-only.txt"),
        missing,
      ]);
      expect(request(1), say).toContain("token=[redacted]");
      expect(request(1), say).toContain("the magic word is PINEAPPLE");
      expect(request(2), say).toContain("[output redacted by hookyard]");
      expect(request(3), say).toContain("the magic word is PINEAPPLE");
      // A tool that fails (no such file) fires tool_error; its inject reaches the next request.
      expect(request(4), say).toContain("advice for read_file: check the path");
      expect(request(4), say).toContain("File not found");
      expect(all(), say).not.toContain("SECRET-JSON-42");
      expect(all(), say).not.toContain("SECRET-TEXT-7");
    },
  );

  it("prompt block: no model request is made", rows("prompt-block"), async () => {
    const ws = await workspace();
    const { model, run, say } = await drive(ws, [shell("rm victim.txt")], "my password is hunter2");
    expect(model.generateRequests(), say).toEqual([]);
    expect(`${run.stdout}${run.stderr}`, say).toContain("the prompt holds a password");
  });

  it(
    "stop-continue: the agent goes on once, with the reason in its next request",
    rows("stop-continue"),
    async () => {
      const ws = await workspace();
      const { turns, request, say } = await drive(ws, [{ text: "I am done." }, { text: "The tests pass." }]);
      expect(turns.length, say).toBe(2);
      expect(request(1), say).toContain("run the tests before you stop");
    },
  );
});

describe.skipIf(!gemini.ok)(
  `Gemini CLI ${geminiCliPackage.version} (real agent), when hookyard cannot guard`,
  () => {
    // The first blockable event is the prompt (BeforeAgent): refused, so no model request, no tool call.
    const refused = async (ws: Workspace, why: string) => {
      const { model, run, say } = await drive(ws, [shell("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(model.generateRequests(), say).toEqual([]);
      expect(`${run.stdout}${run.stderr}`, say).toContain(why);
    };

    it("a hook file that does not load: the prompt is refused", rows("hook-file-broken"), async () => {
      const ws = await workspace({ files: { ".hookyard/hooks/broken.mjs": "export default {{{" } });
      // Its -o json output holds the reason as JSON text: "Blocked by hook \"broken\": …".
      await refused(ws, "could not be loaded (fix");
    });

    it("a guard that crashes (onError block): the shell call is denied", rows("guard-crash"), async () => {
      const ws = await workspace({
        guard: false,
        files: {
          ".hookyard/hooks/crasher.mjs":
            'export default { name: "crasher", on: { tool_before() { throw new Error("the guard crashed"); } } };',
          "hookyard.json": { hooks: { crasher: { onError: "block" } } },
        },
      });
      const { request, say } = await drive(ws, [shell("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(request(1), say).toContain("the guard crashed");
    });

    it(
      "a workspace that does not load (hookyard.json not JSON): the prompt is refused",
      rows("workspace-broken"),
      async () => {
        const ws = await workspace();
        await writeFiles(ws.root, { "hookyard.json": "{ not json" });
        await refused(ws, "RUN_ERR_CONFIG_INVALID");
      },
    );

    it(
      "hookyard cannot start at all (its node is gone): the agent reads the shell's exit 127 as a block, and the prompt is refused",
      rows("cannot-start"),
      async () => {
        const ws = await workspace();
        const file = join(ws.root, ".gemini", "settings.json");
        const text = await readFile(file, "utf8");
        await writeFile(
          file,
          text.replaceAll(JSON.stringify(process.execPath).slice(1, -1), "/nonexistent/node"),
        );
        const { model, say } = await drive(ws, [shell("rm victim.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
        expect(model.generateRequests(), say).toEqual([]);
      },
    );

    it(
      "hookyard's bin is gone (node starts, then exits 1, which that agent reads as a mere warning): the entry's `|| exit 2` makes it a refusal, and the prompt is refused",
      rows("cannot-start"),
      async () => {
        const ws = await workspace();
        const file = join(ws.root, ".gemini", "settings.json");
        const text = await readFile(file, "utf8");
        await writeFile(file, text.replaceAll("/bin/hookyard.js", "/bin/no-such-hookyard.js"));
        const { model, say } = await drive(ws, [shell("rm victim.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
        expect(model.generateRequests(), say).toEqual([]);
      },
    );
  },
);

if (!gemini.ok) {
  describe("Gemini CLI (real agent)", () => {
    it.skip(`not installed, so not tested: ${skipReason}`, () => {});
  });
}
