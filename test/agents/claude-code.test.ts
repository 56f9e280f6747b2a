import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeCodePackage, installClaudeCode, runClaude } from "../../bench/agents/claude-code.js";
import {
  type AnthropicModel,
  requestText,
  type Step,
  startAnthropicModel,
} from "../../bench/agents/fake-model/anthropic.js";
import { hookyard, repoRoot } from "../helpers/cli.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { processWaitMs } from "../helpers/timeouts.js";
import { installRegistryGuard, registryGuardReason } from "./harness/registry-guard.js";
import { proves } from "./harness/support-table.js";
import { runtimeDir, sessionsLog, stopRuntimes } from "./harness/workspace-runtime.js";

/**
 * hookyard behind the real Claude Code binary (pinned in bench/agents/claude-code.ts, installed by the
 * test itself into ~/.cache/hookyard/agents/, never a dependency), against a fake Anthropic model
 * on 127.0.0.1 that scripts its tool calls and logs every request. Each test is a workspace with
 * `hookyard install-into claude` (the exec route, or --http with `hookyard serve` running) and a
 * trusted hook file, and asserts what a user would notice: the file on disk, what the model was
 * sent next. docs/agents/README.md is the table of what these rows prove. Build first (dist/).
 */

const claude = await installClaudeCode();
const skipReason = claude.ok ? "" : claude.reason;
if (!claude.ok) {
  console.warn(
    `SKIPPED: Claude Code conformance (${claudeCodePackage.name}@${claudeCodePackage.version}): ${skipReason}`,
  );
}

/** The workspace's one hook file: a guard, a rewriter, a redactor, an injector, a stop check, a session log. */
function hookFile(root: string, guard: boolean): string {
  const log = JSON.stringify(join(root, "sessions.log"));
  return `import { appendFileSync } from "node:fs";
export default {
  name: "conformance",
  on: {
    agent_before(ctx) { appendFileSync(${log}, "start " + (ctx.agent?.source ?? "") + "\\n"); },
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

const models: AnthropicModel[] = [];
const serves: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(models.splice(0).map((m) => m.close()));
  for (const child of serves.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  // The exec route starts the workspace's daemon (in the background: it may still be starting):
  // every one a test started goes with it, then its runtime folder.
  await stopRuntimes();
});

type RouteName = "exec" | "http";

interface Workspace {
  root: string;
  env: NodeJS.ProcessEnv;
}

/** A workspace with hookyard installed into Claude Code's project settings, by `route`. */
async function workspace(
  route: RouteName,
  options: {
    guard?: boolean;
    files?: Record<string, string | object>;
    serve?: boolean;
    /** Install the sandboxed community guard from a registry (before serve starts). */
    registryGuard?: boolean;
  } = {},
): Promise<Workspace> {
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
  if (options.registryGuard) await installRegistryGuard(root);
  // A daemon that starts after the test's cleanup looked for it stops on its own soon.
  const env: NodeJS.ProcessEnv = { XDG_RUNTIME_DIR: runtime, HOOKYARD_DAEMON_IDLE_MS: "20000" };
  let port = 4874;
  if (route === "http") {
    if (options.serve === false) {
      port = await freePort();
    } else {
      const served = await serve(root);
      port = served.port;
      env.HOOKYARD_SERVE_TOKEN = served.token;
    }
  }
  const args =
    route === "http"
      ? ["install-into", "claude", "--http", "--port", String(port)]
      : ["install-into", "claude"];
  const installed = await hookyard(args, { cwd: root });
  expect(installed.code, installed.stderr).toBe(0);
  return { root, env };
}

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** `hookyard serve --port 0` in the workspace, once it says where it listens and its token. */
function serve(root: string): Promise<{ port: number; token: string }> {
  const child = spawn(
    process.execPath,
    ["--no-node-snapshot", join(repoRoot, "bin", "hookyard.js"), "serve", "--port", "0"],
    {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  serves.push(child);
  let stderr = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not listen: ${stderr}`)), processWaitMs);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /listening on (\S+)\n/.exec(stderr)?.[1];
      const token = /token \(shown this once.*\): (hys_\S+)/.exec(stderr)?.[1];
      if (!url || !token) return;
      clearTimeout(timer);
      resolve({ port: Number(new URL(url).port), token });
    });
    child.on("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
}

/** One `claude -p` in the workspace against a fresh fake model scripted with `script`. */
async function drive(ws: Workspace, script: Step[], prompt = "Do the task.") {
  const model = await startAnthropicModel(script);
  models.push(model);
  const run = await runClaude({
    binary: claude.binary as string,
    cwd: ws.root,
    prompt,
    modelUrl: model.url,
    env: ws.env,
    timeoutMs: 120_000,
  });
  const turns = model.turns();
  const request = (n: number) => (turns[n] === undefined ? "" : requestText(turns[n]));
  return { model, run, turns, request, say: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

const bash = (command: string): Step => ({
  toolUse: { name: "Bash", input: { command, description: "run it" } },
});

const timeout = 240_000;

/** The options of a test that proves `rows` on both routes (docs/agents/README.md's cells). */
const both = (...rows: string[]) => ({
  timeout,
  meta: proves("claude-code", claudeCodePackage.version, { exec: rows, http: rows }),
});

const routes = ["exec", "http"] as const;

/**
 * One behaviour on both routes at once (each its own workspace, model and agent), so the file's
 * wall time is about one run per row; a failure names its route.
 */
function onBothRoutes(check: (route: RouteName) => Promise<void>): () => Promise<void> {
  return async () => {
    const results = await Promise.allSettled(routes.map((route) => check(route)));
    const failed = results.flatMap((r, i) =>
      r.status === "rejected" ? [`route ${routes[i]}: ${String(r.reason)}`] : [],
    );
    if (failed.length > 0) throw new Error(failed.join("\n\n"));
  };
}

describe.skipIf(!claude.ok)(
  `Claude Code ${claudeCodePackage.version} (real binary), routes exec and http`,
  () => {
    it(
      "deny: the victim file survives and the next model request carries the reason; argument rewrite: the next call runs the rewritten command",
      both("deny", "arg-rewrite"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route);
        const { request, say } = await drive(ws, [bash("rm victim.txt"), bash("echo ORIGINAL > out.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
        expect(request(1), say).toContain(
          'Blocked by hook \\"conformance\\": victims are protected by hookyard',
        );
        expect(await readFile(join(ws.root, "out.txt"), "utf8").catch(() => ""), say).toBe("REWRITTEN\n");
      }),
    );

    it(
      "a sandboxed community guard from the registry: the victim file survives, the next request carries its reason",
      both("registry-guard"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route, { guard: false, registryGuard: true });
        const { request, say } = await drive(ws, [bash("rm victim.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
        expect(request(1), say).toContain(registryGuardReason);
      }),
    );

    it(
      "allow (control): with no guard the same call deletes the file; SessionStart and SessionEnd hooks run",
      both("allow", "session"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route, { guard: false });
        const { say } = await drive(ws, [bash("rm victim.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(false);
        // SessionStart runs `hookyard exec` on both routes (that agent runs no http hook there);
        // SessionEnd has its timeout, so the agent waits for it.
        expect(await sessionsLog(ws.root), say).toMatch(/^start startup\nend other\n$/);
      }),
    );

    it(
      "result rewrite that keeps the JSON whole: the model gets the redacted output, not the secret; inject: the next request carries the text",
      both("result-json", "inject-tool"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route);
        const { request, model, say } = await drive(ws, [bash("cat json-secret.txt")]);
        expect(request(1), say).toContain("token=[redacted]");
        expect(model.requests.map((r) => r.text).join("\n"), say).not.toContain("SECRET-JSON-42");
        expect(request(1), say).toContain("the magic word is PINEAPPLE");
      }),
    );

    it(
      "result rewrite to plain text of an object result (Bash's, then Read's): the model gets the text, not the secret",
      both("result-text"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route);
        const read: Step = {
          toolUse: { name: "Read", input: { file_path: join(ws.root, "text-secret.txt") } },
        };
        const { request, model, say } = await drive(ws, [bash("cat text-secret.txt"), read]);
        expect(request(1), say).toContain("[output redacted by hookyard]");
        expect(request(2), say).toMatch(/"tool_use_id":"toolu_fake_2"[^}]*\[output redacted by hookyard\]/);
        expect(model.requests.map((r) => r.text).join("\n"), say).not.toContain("SECRET-TEXT-7");
      }),
    );

    it(
      "prompt block: no model request is made",
      both("prompt-block"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route);
        const { model, run, say } = await drive(ws, [bash("rm victim.txt")], "my password is hunter2");
        expect(
          model.requests.filter((r) => r.path === "/v1/messages"),
          say,
        ).toEqual([]);
        expect(`${run.stdout}${run.stderr}`, say).toContain("the prompt holds a password");
      }),
    );

    it(
      "stop-continue: the agent goes on once, with the reason in its next request",
      both("stop-continue"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route);
        const { turns, request, say } = await drive(ws, [
          { text: "I am done." },
          { text: "The tests pass." },
        ]);
        expect(turns.length, say).toBe(2);
        expect(request(1), say).toContain("run the tests before you stop");
      }),
    );
  },
);

describe.skipIf(!claude.ok)(
  `Claude Code ${claudeCodePackage.version} (real binary), when hookyard cannot guard`,
  () => {
    // The first blockable event is the prompt: it is refused, so no model request, no tool call.
    const refused = async (ws: Workspace, why: string) => {
      const { model, run, say } = await drive(ws, [bash("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(
        model.requests.filter((r) => r.path === "/v1/messages"),
        say,
      ).toEqual([]);
      expect(String(run.json?.result), say).toContain("UserPromptSubmit operation blocked by hook");
      expect(String(run.json?.result), say).toContain(why);
    };
    // A guard that throws when it runs, which its settings say must block.
    const crasher = {
      ".hookyard/hooks/crasher.mjs":
        'export default { name: "crasher", on: { tool_before() { throw new Error("the guard crashed"); } } };',
      "hookyard.json": { hooks: { crasher: { onError: "block" } } },
    };

    it(
      "a hook file that does not load: the prompt is refused",
      both("hook-file-broken"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route, { files: { ".hookyard/hooks/broken.mjs": "export default {{{" } });
        await refused(ws, 'hook "broken" could not be loaded');
      }),
    );

    it(
      "a guard that crashes (onError block): the Bash call is denied",
      both("guard-crash"),
      onBothRoutes(async (route) => {
        const ws = await workspace(route, { guard: false, files: crasher });
        const { request, say } = await drive(ws, [bash("rm victim.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
        expect(request(1), say).toContain("the guard crashed");
      }),
    );

    it("exec, a workspace that does not load (hookyard.json not JSON): the prompt is refused; http, serve not running: Claude Code itself fails open and the file is deleted (documented)", {
      timeout,
      meta: proves("claude-code", claudeCodePackage.version, {
        exec: ["workspace-broken"],
        http: [["unreachable", "**fails open**"]],
      }),
    }, async () => {
      const broken = async () => {
        const ws = await workspace("exec");
        await writeFiles(ws.root, { "hookyard.json": "{ not json" });
        await refused(ws, "RUN_ERR_CONFIG_INVALID");
      };
      const down = async () => {
        const ws = await workspace("http", { serve: false });
        const { say } = await drive(ws, [bash("rm victim.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(false);
      };
      await Promise.all([broken(), down()]);
    });

    it("exec, a result rewrite of a tool whose shape hookyard does not know: the agent stops before the model sees it; exec with no daemon: a SessionEnd hook that takes 2.5 s still runs to its end", {
      timeout,
      meta: proves("claude-code", claudeCodePackage.version, {
        exec: ["result-unknown", "session-end-slow"],
      }),
    }, async () => {
      const unknownShape = async () => {
        const ws = await workspace("exec");
        const { turns, run, say } = await drive(ws, [
          {
            toolUse: {
              name: "Write",
              input: { file_path: join(ws.root, "notes.txt"), content: "SECRET-WRITE-9\n" },
            },
          },
        ]);
        // No request after the tool ran: its result never reached the model.
        expect(turns.length, say).toBe(1);
        expect(run.json?.terminal_reason, say).toBe("hook_stopped");
      };
      // A SessionEnd hook that takes longer than the 1.5 s that agent gives SessionEnd unless the
      // entry asks for more: without install-into's timeout it was cancelled, its line never written.
      const noDaemon = async () => {
        const ws = await workspace("exec", { guard: false });
        const log = JSON.stringify(join(ws.root, "sessions.log"));
        await writeFiles(ws.root, {
          ".hookyard/hooks/slow-end.mjs": `import { appendFileSync } from "node:fs";
export default { name: "slow-end", on: { async agent_after() {
  await new Promise((done) => setTimeout(done, 2500));
  appendFileSync(${log}, "slow end\\n");
} } };`,
        });
        ws.env.HOOKYARD_EXEC_ROUTE = "inprocess";
        const { say } = await drive(ws, [{ text: "Nothing to do." }]);
        expect(await sessionsLog(ws.root), say).toMatch(
          /^start startup\n(end other\nslow end|slow end\nend other)\n$/,
        );
      };
      await Promise.all([unknownShape(), noDaemon()]);
    });
  },
);

// Said in the report too, not only on stderr: a machine with no registry shows a skipped row.
if (!claude.ok) {
  describe("Claude Code (real binary)", () => {
    it.skip(`not installed, so not tested: ${skipReason}`, () => {});
  });
}
