import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AnthropicModel,
  requestText,
  type Step,
  startAnthropicModel,
} from "../../bench/agents/fake-model/anthropic.js";
import { hookyard } from "../helpers/cli.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { installPi, piPackage, runPi, runPiSession } from "./harness/pi.js";
import { installRegistryGuard, registryGuardReason } from "./harness/registry-guard.js";
import { proves } from "./harness/support-table.js";
import { runtimeDir, sessionsLog, stopRuntimes } from "./harness/workspace-runtime.js";

/**
 * hookyard behind the real Pi coding agent (pinned in harness/pi.ts, installed by the test itself
 * into ~/.cache/hookyard/agents/, never a dependency), against the fake Anthropic Messages server
 * on 127.0.0.1 (Pi takes it as an `anthropic-messages` provider from its models.json), which
 * scripts the tool calls and logs every request. Each test is a workspace with `hookyard
 * install-into pi` (hookyard's extension in .pi/extensions/hookyard/, running `hookyard exec
 * --profile pi`) and a trusted hook file, and asserts what a user would notice: the file on disk,
 * what the model was sent next. docs/agents/README.md is the table of what these rows prove. Build first.
 */

const pi = await installPi();
const skipReason = pi.ok ? "" : pi.reason;
if (!pi.ok) console.warn(`SKIPPED: Pi conformance (${piPackage.name}@${piPackage.version}): ${skipReason}`);

/** The workspace's one hook file: a guard, a rewriter, a redactor, an injector, a stop check, a session log. */
function hookFile(root: string, guard: boolean): string {
  const log = JSON.stringify(join(root, "sessions.log"));
  return `import { appendFileSync } from "node:fs";
export default {
  name: "conformance",
  on: {
    agent_before(ctx) {
      appendFileSync(${log}, "start " + (ctx.agent?.reason ?? "") + "\\n");
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

const models: AnthropicModel[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((m) => m.close()));
  await stopRuntimes();
});

interface Workspace {
  root: string;
  env: NodeJS.ProcessEnv;
}

/** A workspace with hookyard's extension installed into the project's .pi/extensions/. */
async function workspace(options: { guard?: boolean; files?: Record<string, string | object> } = {}) {
  const root = await tempDir();
  const runtime = await runtimeDir();
  await writeFiles(root, {
    "hookyard.json": {},
    ".hookyard/hooks/conformance.mjs": hookFile(root, options.guard ?? true),
    "victim.txt": "keep me\n",
    "json-secret.txt": "token=SECRET-JSON-42 INJECT-ME\n",
    "text-secret.txt": "token=SECRET-TEXT-7\n",
    ...options.files,
  });
  const env: NodeJS.ProcessEnv = { XDG_RUNTIME_DIR: runtime, HOOKYARD_DAEMON_IDLE_MS: "20000" };
  const installed = await hookyard(["install-into", "pi"], { cwd: root });
  expect(installed.code, installed.stderr).toBe(0);
  return { root, env } satisfies Workspace;
}

/**
 * One `pi -p` in the workspace against a fresh fake model scripted with `script`; with `session`,
 * the prompt in an open session (`--mode rpc`) that ends once the model has had `session.turns`
 * requests.
 */
async function drive(ws: Workspace, script: Step[], prompt = "Do the task.", session?: { turns: number }) {
  const model = await startAnthropicModel(script);
  models.push(model);
  const options = {
    script: pi.script as string,
    cwd: ws.root,
    prompt,
    modelUrl: model.url,
    env: ws.env,
    timeoutMs: 150_000,
  };
  const run = session
    ? await runPiSession({ ...options, done: () => model.turns().length >= session.turns })
    : await runPi(options);
  const turns = model.turns();
  const request = (n: number) => (turns[n] === undefined ? "" : requestText(turns[n]));
  const all = () => model.requests.map((r) => r.text).join("\n");
  return { model, run, turns, request, all, say: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

const bash = (command: string): Step => ({ toolUse: { name: "bash", input: { command } } });

/** The extension's command.json, pointed elsewhere: what runs as "hookyard". */
async function pointExtensionAt(ws: Workspace, command: string[]): Promise<void> {
  const file = join(ws.root, ".pi", "extensions", "hookyard", "command.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...config, command }));
}

const timeout = 300_000;

/** The options of a test that proves `rows` of docs/agents/README.md's table. */
const rows = (...proven: string[]) => ({ timeout, meta: proves("pi", piPackage.version, { exec: proven }) });

describe.skipIf(!pi.ok)(`Pi ${piPackage.version} (real agent), route exec`, () => {
  it(
    "deny: the victim file survives and the next model request carries the reason; argument rewrite: the next call runs the rewritten command; session start's inject reaches the first request",
    rows("deny", "arg-rewrite", "inject-start"),
    async () => {
      const ws = await workspace();
      const { request, say } = await drive(ws, [bash("rm victim.txt"), bash("echo ORIGINAL > out.txt")]);
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
        const { request, say } = await drive(ws, [bash("rm victim.txt"), bash("echo ORIGINAL > out.txt")]);
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
      const { request, say } = await drive(ws, [bash("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(request(1), say).toContain(registryGuardReason);
    },
  );

  it(
    "allow (control): with no guard the same call deletes the file; session start and end hooks run",
    rows("allow", "session"),
    async () => {
      const ws = await workspace({ guard: false });
      const { say } = await drive(ws, [bash("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(false);
      expect(await sessionsLog(ws.root), say).toMatch(/^start startup\nend quit\n$/);
    },
  );

  it(
    "result rewrite (a bash result, then read's): the model gets the redacted text, not the secret; inject: the same request carries the text; a failed tool fires tool_error, whose inject reaches the model",
    rows("result-rewrite", "inject-tool", "tool-error"),
    async () => {
      const ws = await workspace();
      const { request, all, say } = await drive(ws, [
        bash("cat json-secret.txt"),
        { toolUse: { name: "read", input: { path: join(ws.root, "text-secret.txt") } } },
        { toolUse: { name: "read", input: { path: join(ws.root, "no-such-file.txt") } } },
      ]);
      expect(request(1), say).toContain("token=[redacted]");
      expect(request(1), say).toContain("the magic word is PINEAPPLE");
      expect(request(2), say).toContain("[output redacted by hookyard]");
      expect(request(3), say).toContain("advice for read_file: check the path");
      expect(all(), say).not.toContain("SECRET-JSON-42");
      expect(all(), say).not.toContain("SECRET-TEXT-7");
    },
  );

  it("prompt block: no model request is made, and the reason is shown", rows("prompt-block"), async () => {
    const ws = await workspace();
    const { model, run, say } = await drive(ws, [bash("rm victim.txt")], "my password is hunter2");
    expect(model.requests, say).toEqual([]);
    expect(`${run.stdout}${run.stderr}`, say).toContain("the prompt holds a password");
  });

  it(
    "stop-continue (in an open session, --mode rpc): the agent goes on once, with the reason in its next request",
    rows("stop-continue"),
    async () => {
      const ws = await workspace();
      const { turns, request, say } = await drive(
        ws,
        [{ text: "I am done." }, { text: "The tests pass." }],
        "Do the task.",
        {
          turns: 2,
        },
      );
      expect(turns.length, say).toBe(2);
      expect(request(1), say).toContain("run the tests before you stop");
    },
  );
});

describe.skipIf(!pi.ok)(`Pi ${piPackage.version} (real agent), when hookyard cannot guard`, () => {
  // The first blockable event is the prompt (Pi's input event): refused, so no model request, no tool call.
  const promptRefused = async (ws: Workspace, why: string) => {
    const { model, run, say } = await drive(ws, [bash("rm victim.txt")]);
    expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
    expect(model.requests, say).toEqual([]);
    expect(`${run.stdout}${run.stderr}`, say).toContain(why);
  };

  it("a hook file that does not load: the prompt is refused", rows("hook-file-broken"), async () => {
    const ws = await workspace({ files: { ".hookyard/hooks/broken.mjs": "export default {{{" } });
    await promptRefused(ws, "could not be loaded (fix");
  });

  it(
    "a guard that crashes (onError block): the bash call is denied, the model told why",
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
      const { request, say } = await drive(ws, [bash("rm victim.txt")]);
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
      await promptRefused(ws, "RUN_ERR_CONFIG_INVALID");
    },
  );

  it(
    "hookyard cannot be run at all (its node is gone): the prompt is refused, saying hookyard could not answer",
    rows("cannot-start"),
    async () => {
      const ws = await workspace();
      await pointExtensionAt(ws, ["/nonexistent/node", "/nonexistent/hookyard.js"]);
      await promptRefused(ws, "hookyard could not answer, so this prompt is refused");
    },
  );

  it(
    "hookyard fails at the tool call (crashes, answers what is not JSON, or never answers): the call is refused, and the model is told hookyard could not answer",
    rows("fails-at-call"),
    async () => {
      // A stand-in for hookyard that lets the prompt through and fails only at tool_call.
      const standIn = `const event = process.argv.at(-1);
process.stdin.resume();
process.stdin.on("end", () => {
  if (event !== "tool_call") process.exit(0);
  const mode = process.env.STAND_IN_MODE;
  if (mode === "crash") { process.stderr.write("the stand-in crashed\\n"); process.exit(1); }
  if (mode === "garbage") { process.stdout.write("this is not json\\n"); process.exit(0); }
  setTimeout(() => {}, 60_000);
});
`;
      const check = async (mode: "crash" | "garbage" | "hang", why: string) => {
        const ws = await workspace({ files: { "stand-in.mjs": standIn } });
        await pointExtensionAt(ws, [process.execPath, join(ws.root, "stand-in.mjs")]);
        ws.env.STAND_IN_MODE = mode;
        ws.env.HOOKYARD_PI_TIMEOUT_MS = "3000";
        const { request, say } = await drive(ws, [bash("rm victim.txt")]);
        const where = `mode ${mode}\n${say}`;
        expect(existsSync(join(ws.root, "victim.txt")), where).toBe(true);
        expect(request(1), where).toContain("hookyard could not answer, so this tool call is refused");
        expect(request(1), where).toContain(why);
      };
      await Promise.all([
        check("crash", "the stand-in crashed"),
        check("garbage", "its answer is not JSON"),
        check("hang", "did not answer within 3000 ms"),
      ]);
    },
  );
});

if (!pi.ok) {
  describe("Pi (real agent)", () => {
    it.skip(`not installed, so not tested: ${skipReason}`, () => {});
  });
}
