import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AnthropicModel,
  requestText,
  type Step,
  startAnthropicModel,
} from "../../bench/agents/fake-model/anthropic.js";
import { installAgent } from "../../bench/agents/install-agent.js";
import { hookyard } from "../helpers/cli.js";
import { tempDir, writeFiles } from "../helpers/temp.js";
import { installOpencode, opencodePackage, runOpencode } from "./harness/opencode.js";
import { installRegistryGuard, registryGuardReason } from "./harness/registry-guard.js";
import { proves } from "./harness/support-table.js";
import { runtimeDir, sessionsLog, stopRuntimes } from "./harness/workspace-runtime.js";

/**
 * hookyard behind the real OpenCode (pinned in harness/opencode.ts, installed by the test itself
 * into ~/.cache/hookyard/agents/, never a dependency), through hookyard's plugin as
 * `hookyard install-into opencode` writes it (.opencode/plugins/hookyard.ts), against a fake
 * Anthropic API on 127.0.0.1 that scripts its tool calls and logs every request. Each test is a
 * workspace with a trusted hook file, and asserts what a user would notice: the file on disk, what
 * the model was sent next. docs/agents/README.md is the table of what these rows prove. Build first (dist/).
 */

const opencode = await installOpencode();
const skipReason = opencode.ok ? "" : opencode.reason;
if (!opencode.ok) {
  console.warn(
    `SKIPPED: OpenCode conformance (${opencodePackage.name}@${opencodePackage.version}): ${skipReason}`,
  );
}

/** The workspace's one hook file: a guard, a rewriter, a redactor, an injector, a session log. */
function hookFile(root: string, guard: boolean): string {
  const log = JSON.stringify(join(root, "sessions.log"));
  return `import { appendFileSync } from "node:fs";
export default {
  name: "conformance",
  on: {
    agent_before(ctx) {
      appendFileSync(${log}, "start\\n");
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
    turn_before(ctx) { if (/password/i.test(ctx.prompt)) return { block: "the prompt holds a password" }; },`
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
  plugin: string;
}

/** A workspace with hookyard's plugin installed into the project's .opencode/plugins/. */
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
  const installed = await hookyard(["install-into", "opencode"], { cwd: root });
  expect(installed.code, installed.stderr).toBe(0);
  return { root, env, plugin: join(root, ".opencode", "plugins", "hookyard.ts") } satisfies Workspace;
}

/** One `opencode run` in the workspace against a fresh fake model scripted with `script`. */
async function drive(ws: Workspace, script: Step[], prompt = "Do the task.") {
  const model = await startAnthropicModel(script);
  models.push(model);
  const run = await runOpencode({
    binary: opencode.binary as string,
    cwd: ws.root,
    prompt,
    modelUrl: model.url,
    env: ws.env,
    timeoutMs: 150_000,
  });
  const turns = model.turns();
  const request = (n: number) => (turns[n] === undefined ? "" : requestText(turns[n]));
  const all = () => model.requests.map((r) => r.text).join("\n");
  return { model, run, turns, request, all, say: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

const bash = (command: string): Step => ({
  toolUse: { name: "bash", input: { command, description: "run it" } },
});

const timeout = 300_000;

/** The options of a test that proves `rows` of docs/agents/README.md's table. */
const rows = (...proven: string[]) => ({
  timeout,
  meta: proves("opencode", opencodePackage.version, { exec: proven }),
});

describe.skipIf(!opencode.ok)(`OpenCode ${opencodePackage.version} (real agent), its plugin`, () => {
  it(
    "deny: the victim file survives and the next model request carries the reason; argument rewrite: the next call runs the rewritten command; inject at session start: the first request carries it; nothing is fetched but from the npm registry",
    rows("deny", "arg-rewrite", "inject-start", "egress"),
    async () => {
      const ws = await workspace();
      const { run, request, say } = await drive(ws, [bash("rm victim.txt"), bash("echo ORIGINAL > out.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(request(1), say).toContain(
        'Blocked by hook \\"conformance\\": victims are protected by hookyard',
      );
      expect(request(0), say).toContain("SESSION-CONTEXT-OK");
      expect(await readFile(join(ws.root, "out.txt"), "utf8").catch(() => ""), say).toBe("REWRITTEN\n");
      // Nothing beyond the fake model and the npm registry was asked for (and the proxy that would
      // have refused it was in the path: OpenCode fetched its plugin package through it).
      expect(run.refused, say).toEqual([]);
      expect(run.allowed, say).toContain("CONNECT registry.npmjs.org:443");
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
      expect(await sessionsLog(ws.root), say).toBe("start\nend exit\n");
    },
  );

  it(
    "result rewrite (a bash result, then read's): the model gets the redacted text, not the secret; inject after a tool: the next request carries the text",
    rows("result-rewrite", "inject-tool"),
    async () => {
      const ws = await workspace();
      const read: Step = { toolUse: { name: "read", input: { filePath: join(ws.root, "text-secret.txt") } } };
      const { request, all, say } = await drive(ws, [bash("cat json-secret.txt"), read]);
      expect(request(1), say).toContain("token=[redacted]");
      expect(request(1), say).toContain("the magic word is PINEAPPLE");
      expect(request(2), say).toContain("[output redacted by hookyard]");
      expect(all(), say).not.toContain("SECRET-JSON-42");
      expect(all(), say).not.toContain("SECRET-TEXT-7");
    },
  );

  it("prompt block: no model request is made", rows("prompt-block"), async () => {
    const ws = await workspace();
    const { model, run, say } = await drive(ws, [bash("rm victim.txt")], "my password is hunter2");
    expect(model.requests, say).toEqual([]);
    expect(run.stderr, say).toContain("the prompt holds a password");
  });
});

describe.skipIf(!opencode.ok)(
  `OpenCode ${opencodePackage.version} (real agent), when hookyard cannot guard`,
  () => {
    // The first event the plugin can refuse is the prompt (chat.message): refused, so no model request, no tool call.
    const refused = async (ws: Workspace, why: string) => {
      const { model, run, say } = await drive(ws, [bash("rm victim.txt")]);
      expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
      expect(model.requests, say).toEqual([]);
      expect(run.stderr, say).toContain(why);
    };

    it("a hook file that does not load: the prompt is refused", rows("hook-file-broken"), async () => {
      const ws = await workspace({ files: { ".hookyard/hooks/broken.mjs": "export default {{{" } });
      await refused(ws, "could not be loaded (fix");
    });

    it(
      "hookyard cannot start (its node is gone): the prompt is refused, saying hookyard could not answer",
      rows("cannot-start"),
      async () => {
        const ws = await workspace();
        const text = await readFile(ws.plugin, "utf8");
        await writeFile(ws.plugin, text.replace(JSON.stringify(process.execPath), '"/nonexistent/node"'));
        await refused(ws, "hookyard could not answer, so this prompt is refused");
      },
    );

    it(
      "hookyard fails at the tool call (it crashes, then answers what is not its JSON): each call is refused, the victim survives, the model is told hookyard could not answer",
      rows("fails-at-call"),
      async () => {
        const ws = await workspace({ files: { "victim2.txt": "keep me too\n" } });
        // In hookyard's place: answers the session and the prompt, fails at tool.execute.before.
        const stand = join(ws.root, "failing-hookyard.sh");
        await writeFile(
          stand,
          `input=$(cat)\ncase "$4" in\n  tool.execute.before) case "$input" in *victim2*) echo "not json";; *) echo "it crashed" >&2; exit 1;; esac;;\n  *) echo "{}";;\nesac\n`,
        );
        const text = await readFile(ws.plugin, "utf8");
        await writeFile(
          ws.plugin,
          text.replace(
            /^const installedCommand: .*$/m,
            `const installedCommand: readonly string[] = ["/bin/sh", ${JSON.stringify(stand)}];`,
          ),
        );
        const { request, say } = await drive(ws, [bash("rm victim.txt"), bash("rm victim2.txt")]);
        expect(existsSync(join(ws.root, "victim.txt")), say).toBe(true);
        expect(existsSync(join(ws.root, "victim2.txt")), say).toBe(true);
        expect(request(1), say).toContain(
          "hookyard could not answer, so this tool call is refused: it exited 1",
        );
        expect(request(1), say).toContain("it crashed");
        expect(request(2), say).toContain(
          "hookyard could not answer, so this tool call is refused: it exited 0 without an answer",
        );
      },
    );

    it(
      "hookyard's bin is gone (node starts, then exits 1): the prompt is refused, saying hookyard could not answer",
      rows("cannot-start"),
      async () => {
        const ws = await workspace();
        const text = await readFile(ws.plugin, "utf8");
        await writeFile(ws.plugin, text.replace("/bin/hookyard.js", "/bin/no-such-hookyard.js"));
        await refused(ws, "hookyard could not answer, so this prompt is refused");
      },
    );
  },
);

describe.skipIf(!opencode.ok)(`OpenCode ${opencodePackage.version}'s plugin API`, () => {
  it(
    "hookyard's plugin, as shipped, is a Plugin of @opencode-ai/plugin at the same version (tsc)",
    rows("plugin-types"),
    async () => {
      const types = await installAgent({ name: "@opencode-ai/plugin", version: opencodePackage.version });
      if (!types.ok) throw new Error(types.reason);
      const dir = await tempDir();
      await symlink(join(types.agent.dir, "node_modules"), join(dir, "node_modules"));
      await copyFile(
        join(process.cwd(), "integrations", "opencode", "hookyard.ts"),
        join(dir, "hookyard.ts"),
      );
      await writeFile(
        join(dir, "check.ts"),
        'import type { Plugin } from "@opencode-ai/plugin";\nimport { HookyardPlugin } from "./hookyard.js";\nexport const plugin: Plugin = HookyardPlugin;\n',
      );
      const compilerOptions = {
        target: "ES2023",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(process.cwd(), "node_modules", "@types")],
      };
      await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["check.ts"] }));
      const tsc = join(process.cwd(), "node_modules", "typescript", "bin", "tsc");
      const result = await promisify(execFile)(process.execPath, [tsc, "-p", dir]).then(
        () => "",
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      expect(result).toBe("");
    },
  );
});

if (!opencode.ok) {
  describe("OpenCode (real agent)", () => {
    it.skip(`not installed, so not tested: ${skipReason}`, () => {});
  });
}
