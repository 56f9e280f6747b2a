import { randomUUID } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { parseGrants } from "../../sandbox/capabilities.js";
import {
  createSandbox,
  type HookAnswer,
  type RunOptions,
  type Sandbox,
  type SandboxHook,
  type SandboxLimits,
} from "../../sandbox/index.js";
import { tempDir, workspace } from "../helpers/temp.js";
import { agentCheckFile, agentCheckHook, agentSession } from "./agent-check.js";

/**
 * A real sandbox (real sandbox process, real isolates, real broker) over a temp workspace, with
 * canaries a hook must never reach: a file outside the workspace and an env var, both secret.
 */

/** Set before any sandbox process is forked, so it inherits it like the agent's own secrets. */
export const canaryEnvName = "HOOKYARD_TEST_CANARY_SECRET";
const canaryEnvValue = `env-secret-${randomUUID()}`;
process.env[canaryEnvName] = canaryEnvValue;

/** Checks run after each test, before the temp dirs go (vitest runs later-registered after-hooks first). */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

export const ctx = { tool: "bash", args: { command: "ls" }, callId: "call-1" };
export const ctxJson = JSON.stringify(ctx);

export interface HookOptions {
  grants?: string[];
  limits?: Partial<SandboxLimits>;
  points?: string[];
}

export interface Harness {
  readonly sandbox: Sandbox;
  readonly root: string;
  /** Absolute path of a file outside the workspace and outside every grant. */
  readonly canaryFile: string;
  /** The canary file's content and the canary env var's value: what no hook or model may ever see. */
  readonly secrets: readonly string[];
  readonly logs: [hook: string, text: string][];
  readonly warnings: string[];
  /** Every answer this harness returned, for the leak check. */
  readonly answers: HookAnswer[];
  hook(name: string, source: string, options?: HookOptions): SandboxHook;
  run(hooks: SandboxHook | SandboxHook[], options?: RunOptions & { ctxJson?: string }): Promise<HookAnswer[]>;
  /** Runs one hook and returns its one answer. */
  runOne(hook: SandboxHook, options?: RunOptions & { ctxJson?: string }): Promise<HookAnswer>;
}

export async function harness(
  options: {
    isolation?: "process" | "inline";
    limits?: Partial<SandboxLimits>;
    quarantineAfter?: number;
    /** Called when a hook's state.get reaches the host, i.e. while its call is in flight. */
    onStateGet?: (hook: string, key: string) => void;
  } = {},
): Promise<Harness> {
  const root = await workspace({ "docs/readme.md": "workspace docs" });
  const outside = await tempDir();
  const canaryFile = join(outside, "canary.txt");
  const canaryFileValue = `file-secret-${randomUUID()}`;
  await writeFile(canaryFile, canaryFileValue);
  const canaryBefore = await stat(canaryFile);
  const logs: [string, string][] = [];
  const warnings: string[] = [];
  const answers: HookAnswer[] = [];
  const state = new Map<string, unknown>();
  const sandbox = createSandbox({
    isolation: options.isolation ?? "process",
    root,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.quarantineAfter ? { quarantineAfter: options.quarantineAfter } : {}),
    services: {
      log: (hook, text) => void logs.push([hook, text]),
      warn: (message) => void warnings.push(message),
      stateGet: async (hook, key) => {
        options.onStateGet?.(hook, key);
        return state.get(`${hook}\0${key}`);
      },
      stateSet: async (hook, key, value) => void state.set(`${hook}\0${key}`, value),
    },
  });

  cleanups.push(async () => {
    await sandbox.close();
    // Nothing a hook did may have reached the canaries, whatever the test itself checked.
    const seen = JSON.stringify({ answers, logs, warnings, state: [...state.entries()] });
    expect(seen).not.toContain(canaryFileValue);
    expect(seen).not.toContain(canaryEnvValue);
    expect(await readFile(canaryFile, "utf8")).toBe(canaryFileValue);
    expect((await stat(canaryFile)).mtimeMs).toBe(canaryBefore.mtimeMs);
    const audit = await readFile(join(root, ".hookyard", "logs", "capabilities.jsonl"), "utf8").catch(
      () => "",
    );
    for (const line of audit.split("\n").filter(Boolean)) {
      const entry = JSON.parse(line) as { allowed: boolean; target: string };
      if (entry.allowed) expect(entry.target).not.toContain(outside);
    }
  });

  const h: Harness = {
    sandbox,
    root,
    canaryFile,
    secrets: [canaryFileValue, canaryEnvValue],
    logs,
    warnings,
    answers,
    hook(name, source, hookOptions = {}) {
      return {
        id: `${name}@${randomUUID()}`,
        name,
        code: Buffer.from(source),
        points: hookOptions.points ?? ["tool_before", "tool_after", "notify"],
        grants: parseGrants(hookOptions.grants ?? []),
        ...(hookOptions.limits ? { limits: hookOptions.limits } : {}),
      };
    },
    async run(hooks, runOptions = {}) {
      const list = Array.isArray(hooks) ? hooks : [hooks];
      const result = await sandbox.run("tool_before", runOptions.ctxJson ?? ctxJson, list, runOptions);
      answers.push(...result);
      return result;
    },
    async runOne(hook, runOptions) {
      const [answer, ...rest] = await h.run(hook, runOptions);
      expect(rest).toEqual([]);
      return answer as HookAnswer;
    },
  };
  return h;
}

/** A hook that only answers, with a notice naming the tool. */
export const benignSource = `export default defineHook({
  name: "benign",
  on: { tool_before(ctx) { return { notice: "still here: " + ctx.tool }; } },
});`;

/**
 * After an attack: a real agent session whose community hook runs in the attacked sandbox (its
 * process, its isolates) still answers, and shows the model no canary.
 */
export async function expectStillAnswers(h: Harness): Promise<void> {
  const logged = h.logs.length;
  const injected = await agentSession({
    root: h.root,
    sandbox: h.sandbox,
    secrets: h.secrets,
    use: 'api.log("served the agent"); return "saw " + ctx.tool + " of " + ctx.args.path;',
  });
  expect(injected).toBe(`saw write_file of ${agentCheckFile}`);
  // Its log line reached this harness's host services: the hook ran in h.sandbox, not in a new one.
  expect(h.logs.slice(logged)).toEqual([[expect.stringMatching(`^${agentCheckHook}@`), "served the agent"]]);
}

/** A bundle whose tool_before handler has `body` (which may use ctx and api). */
export function handler(body: string, { async = false } = {}): string {
  return `export default defineHook({ on: { ${async ? "async " : ""}tool_before(ctx, api) { ${body} } } });`;
}
