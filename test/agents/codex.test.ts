import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ResponsesModel,
  type ResponsesStep,
  responsesRequestText,
  startResponsesModel,
} from "../../bench/agents/fake-model/openai-responses.js";
import { hookyard } from "../helpers/cli.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { codexConfig, codexPackage, installCodex, runCodex, trustRecords } from "./harness/codex.js";
import { installRegistryGuard, registryGuardReason } from "./harness/registry-guard.js";
import { proves } from "./harness/support-table.js";
import { runtimeDir, sessionsLog, stopRuntimes } from "./harness/workspace-runtime.js";

/**
 * hookyard behind the real Codex binary (pinned in harness/codex.ts, installed by the test itself
 * into ~/.cache/hookyard/agents/, never a dependency), against a fake OpenAI Responses API on
 * 127.0.0.1 that scripts its tool calls and logs every request. Each test is a workspace with
 * `hookyard install-into codex` and a hook file; Codex's trust in the entries is recorded as its
 * /hooks panel records it (one test leaves it out). Each asserts what a user would notice: the
 * file on disk, what the model was sent next. docs/agents/README.md is the table of what these rows
 * prove. Build first (dist/).
 */

const codex = await installCodex();
const skipReason = codex.ok ? "" : codex.reason;
if (!codex.ok) {
  console.warn(`SKIPPED: Codex conformance (${codexPackage.name}@${codexPackage.version}): ${skipReason}`);
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
    turn_after(ctx) { if (ctx.answer === "I am done.") return { continue: "run the tests before you stop" }; },`
        : ""
    }
  },
};
`;
}

const models: ResponsesModel[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((m) => m.close()));
  await stopRuntimes();
});

interface Workspace {
  root: string;
  env: NodeJS.ProcessEnv;
  install: { stdout: string };
}

/** A workspace with hookyard installed into Codex's project hooks (.codex/hooks.json). */
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
  const installed = await hookyard(["install-into", "codex"], { cwd: root });
  expect(installed.code, installed.stderr).toBe(0);
  return { root, env, install: installed } satisfies Workspace;
}

/** One `codex exec` in the workspace against a fresh fake model scripted with `script`. */
async function drive(
  ws: Workspace,
  script: ResponsesStep[],
  prompt = "Do the task.",
  trust: "recorded" | "none" = "recorded",
) {
  const model = await startResponsesModel(script);
  models.push(model);
  const run = await runCodex({
    binary: codex.binary as string,
    cwd: ws.root,
    prompt,
    modelUrl: model.url,
    trust,
    env: ws.env,
    timeoutMs: 150_000,
  });
  const turns = model.turns();
  const request = (n: number) => (turns[n] === undefined ? "" : responsesRequestText(turns[n]));
  const all = () => model.requests.map((r) => r.text).join("\n");
  return { model, run, turns, request, all, say: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

const shell = (cmd: string): ResponsesStep => ({ call: { name: "exec_command", args: { cmd } } });

const timeout = 300_000;

/** The options of a test that proves `rows` of docs/agents/README.md's table. */
const rows = (...proven: string[]) => ({
  timeout,
  meta: proves("codex", codexPackage.version, { exec: proven }),
});

describe.skipIf(!codex.ok)(`Codex ${codexPackage.version} (real agent), route exec`, () => {
  it(
    "deny: the victim file survives and the next model request carries the reason; argument rewrite: the next call runs the rewritten command; SessionStart's inject reaches the first request",
    rows("deny", "arg-rewrite", "inject-start"),
    async () => {
      const ws = await workspace();
      const { request, say } = await drive(ws, [shell("rm victim.txt"), shell("echo ORIGINAL > out.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(request(1), say).toContain(
        'Blocked by hook \\"conformance\\": victims are protected by hookyard',
      );
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
      expect(await sessionsLog(ws.root), say).toMatch(/^start startup\nend \S+\n$/);
    },
  );

  it(
    "result rewrite (a redaction in place, then a whole result replaced): the model gets the redacted text, never the secret; inject: the next request carries the text",
    rows("result-rewrite", "inject-tool"),
    async () => {
      const ws = await workspace();
      const { request, all, say } = await drive(ws, [
        shell("cat json-secret.txt"),
        shell("cat text-secret.txt"),
        shell("cat inject-only.txt"),
      ]);
      expect(request(1), say).toContain("token=[redacted] INJECT-ME");
      expect(request(1), say).toContain("the magic word is PINEAPPLE");
      expect(request(2), say).toContain("[output redacted by hookyard]");
      expect(request(3), say).toContain("the magic word is PINEAPPLE");
      expect(all(), say).not.toContain("SECRET-JSON-42");
      expect(all(), say).not.toContain("SECRET-TEXT-7");
    },
  );

  it(
    "prompt block: no model request is made (the prompt never leaves the machine), and no tool runs",
    rows("prompt-block"),
    async () => {
      const ws = await workspace();
      const { model, run, say } = await drive(ws, [shell("rm victim.txt")], "my password is hunter2");
      expect(model.responseRequests(), say).toEqual([]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      // `codex exec` shows the block, not its reason.
      expect(run.stderr, say).toContain("UserPromptSubmit Blocked");
    },
  );

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

describe.skipIf(!codex.ok)(`Codex ${codexPackage.version} (real agent), when hookyard cannot guard`, () => {
  // The first blockable event is the prompt (UserPromptSubmit): refused, so no model request, no tool call.
  // `codex exec` prints that the hook blocked, not its reason (the reason is hookyard's: the
  // profile's tests hold it).
  const refused = async (ws: Workspace) => {
    const { model, run, say } = await drive(ws, [shell("rm victim.txt")]);
    expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
    expect(model.responseRequests(), say).toEqual([]);
    expect(run.stderr, say).toContain("UserPromptSubmit Blocked");
  };

  it("a hook file that does not load: the prompt is refused", rows("hook-file-broken"), async () => {
    const ws = await workspace({ files: { ".hookyard/hooks/broken.mjs": "export default {{{" } });
    await refused(ws);
  });

  it(
    "a guard that crashes (onError block): the shell call is denied, the reason in the next request",
    rows("guard-crash"),
    async () => {
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
    },
  );

  it(
    "a workspace that does not load (hookyard.json not JSON): the prompt is refused",
    rows("workspace-broken"),
    async () => {
      const ws = await workspace();
      await writeFiles(ws.root, { "hookyard.json": "{ not json" });
      await refused(ws);
    },
  );

  it(
    "hookyard's bin is gone (node starts, then exits 1, which Codex reads as a failed hook and goes on): the entry's `|| exit 2` makes it a refusal, and the prompt is refused (without it, the prompt goes through)",
    rows("bin-gone"),
    async () => {
      const ws = await workspace();
      const file = join(ws.root, ".codex", "hooks.json");
      const text = await readFile(file, "utf8");
      await writeFile(file, text.replaceAll("/bin/hookyard.js", "/bin/no-such-hookyard.js"));
      await refused(ws);
      // The control: the same entries without `|| exit 2` let the prompt through to the model.
      const open = await workspace({ guard: false });
      const openFile = join(open.root, ".codex", "hooks.json");
      const openText = (await readFile(openFile, "utf8")).replaceAll(
        "/bin/hookyard.js",
        "/bin/no-such-hookyard.js",
      );
      await writeFile(openFile, openText.replaceAll(" || exit 2", ""));
      const { model, say } = await drive(open, [{ text: "Hello." }]);
      expect(model.responseRequests().length, say).toBeGreaterThan(0);
    },
  );

  it(
    "hooks Codex has not trusted: install-into says how to trust them, `hookyard status` says they do not run (exit 1), and indeed the guard does not run; once trusted, status says so",
    rows("untrusted"),
    async () => {
      const ws = await workspace();
      expect(ws.install.stdout).toContain("/hooks");
      const home = await runtimeDir();
      const config = join(home, "config.toml");
      const env = { ...ws.env, CODEX_HOME: home };
      await writeFile(config, codexConfig({ modelUrl: "http://127.0.0.1:9", cwd: ws.root }));
      const before = await hookyard(["status"], { cwd: ws.root, env });
      expect(before.code, before.stdout).toBe(1);
      expect(before.stdout).toContain("NOT TRUSTED: Codex has not trusted hookyard's hooks");

      const { say } = await drive(ws, [shell("rm victim.txt")], "Do the task.", "none");
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(false);

      const trust = await trustRecords(join(ws.root, ".codex", "hooks.json"));
      await writeFile(config, codexConfig({ modelUrl: "http://127.0.0.1:9", cwd: ws.root, trust }));
      const after = await hookyard(["status"], { cwd: ws.root, env });
      expect(after.stdout).toContain("are trusted by Codex");
      expect(after.stdout).not.toContain("NOT TRUSTED");
    },
  );
});

if (!codex.ok) {
  describe("Codex (real agent)", () => {
    it.skip(`not installed, so not tested: ${skipReason}`, () => {});
  });
}
