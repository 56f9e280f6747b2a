import { existsSync } from "node:fs";
import { readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AgentEvent, runAgent } from "../../../runner/agent/loop.js";
import { ScriptedModel } from "../../../runner/agent/models/scripted.js";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { completion, messagesOf, openAIStub, sendJson } from "../../helpers/openai-stub.js";
import { workspace } from "../../helpers/temp.js";

type Step = { content?: string; toolCalls?: Array<{ name: string; args: Record<string, unknown> }> };

const opened: Hooks[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((hooks) => hooks.close()));
});

const reviewer = (settings: Record<string, unknown> = {}) => ({
  name: "reviewer",
  engine: "agent",
  events: ["tool_before"],
  matcher: { tool: "^bash$" },
  model: "scripted:reviewer.json",
  instructions: "Block commands that delete files; allow the rest.",
  ...settings,
});

/** A workspace whose hookyard.json's `rules` holds `entries` and whose reviewer script is `steps`. */
async function workspaceWith(entries: unknown[], steps: Step[] = [{ content: '{"verdict":"allow"}' }]) {
  const root = await workspace({
    "hookyard.json": { rules: entries },
    "reviewer.json": { responses: steps },
    "NOTES.md": "build/ holds generated files only\n",
  });
  const logger = recordingLogger();
  const hooks = await loadHooks({ cwd: root, logger, prestart: false });
  opened.push(hooks);
  return { root, hooks, logger };
}

/** A user's run at depth 0: the agent runs each of `commands` with bash, one per model call. */
async function userRun(hooks: Hooks, root: string, commands: string[]) {
  const events: AgentEvent[] = [];
  const model = new ScriptedModel(
    ScriptedModel.parse({
      responses: [
        ...commands.map((command) => ({ toolCalls: [{ name: "bash", args: { command } }] })),
        { content: "done" },
      ],
    }),
  );
  await runAgent({ hooks, model, prompt: "tidy up", cwd: root, onEvent: (e) => events.push(e) });
  const results = events.filter((e) => e.type === "tool_result").map((e) => (e as { text: string }).text);
  return { events, results };
}

describe("agent engine", () => {
  it("a scripted reviewer that looks around and blocks rm -rf stops the command with its reason", async () => {
    const { root, hooks } = await workspaceWith(
      [reviewer()],
      [
        { toolCalls: [{ name: "read_file", args: { path: "NOTES.md" } }] },
        { content: '{"verdict":"block","reason":"rm -rf deletes the build output the notes protect"}' },
        { content: '{"verdict":"allow"}' },
      ],
    );
    await import("node:fs/promises").then((fs) => fs.mkdir(join(root, "build")));
    const { results, events } = await userRun(hooks, root, ["rm -rf build", "ls"]);
    expect(results[0]).toBe('Blocked by hook "reviewer": rm -rf deletes the build output the notes protect');
    expect(existsSync(join(root, "build"))).toBe(true);
    // ls was reviewed too, allowed, and ran: its output lists the workspace.
    expect(results[1]).toContain("NOTES.md");
    // The reviewer's own model and tool calls are in the transcript, nested under its name, one deeper.
    const nested = events.filter((e) => e.type === "nested");
    expect(nested.every((e) => e.type === "nested" && e.hook === "reviewer" && e.depth === 1)).toBe(true);
    const inner = nested.map((e) => (e as { event: AgentEvent }).event);
    expect(inner).toContainEqual(
      expect.objectContaining({ type: "tool_call", tool: "read_file", args: { path: "NOTES.md" } }),
    );
    expect(inner).toContainEqual(
      expect.objectContaining({ type: "tool_result", ok: true, text: "build/ holds generated files only\n" }),
    );
    expect(inner.filter((e) => e.type === "model")).toHaveLength(3);
  });

  it("the reviewer is asked about the call itself: its prompt carries the tool and its args", async () => {
    const { hooks } = await workspaceWith([reviewer()]);
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls -la" } }));
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toMatchObject([{ hook: "reviewer", status: "ok", effects: [] }]);
  });

  it("an ask verdict asks", async () => {
    const { hooks } = await workspaceWith(
      [reviewer()],
      [{ content: '{"verdict":"ask","reason":"pushes to main"}' }],
    );
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "git push" } }));
    expect(outcome.verdict).toBe("ask");
    expect(outcome.asks).toEqual([{ hook: "reviewer", reason: "pushes to main" }]);
  });

  it.each([
    ["prose around the JSON", 'Sure! {"verdict":"allow"}'],
    ["a code fence", '```json\n{"verdict":"allow"}\n```'],
    ["a block without a reason", '{"verdict":"block"}'],
    ["an unknown verdict", '{"verdict":"deny","reason":"no"}'],
    ["an extra field", '{"verdict":"allow","confidence":0.9}'],
    ["an empty answer", ""],
  ])("%s is a hook error, not an allow (onError open lets the call through)", async (_, content) => {
    const { hooks, logger } = await workspaceWith([reviewer()], [{ content }]);
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "rm -rf /" } }));
    expect(outcome.runs).toMatchObject([{ hook: "reviewer", status: "error" }]);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_VERDICT_INVALID"]);
    expect(logger.errors.join("\n")).toContain("the model's verdict is");
  });

  it("a malformed verdict blocks under onError block", async () => {
    const { hooks, logger } = await workspaceWith(
      [reviewer({ onError: "block" })],
      [{ content: "looks fine to me" }],
    );
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "rm -rf /" } }));
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("reviewer");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_VERDICT_INVALID"]);
    expect(logger.errors.join("\n")).toMatch(/verdict is not JSON: "looks fine to me".*blocking/);
  });

  it("at depth 1 the agent hook does not run, while a command hook does", async () => {
    const { root, hooks } = await workspaceWith(
      [
        reviewer({ onError: "block" }),
        { name: "counter", engine: "command", events: ["tool_before"], command: "echo ran >> count.txt" },
      ],
      [{ content: '{"verdict":"block","reason":"would have blocked"}' }],
    );
    const outcome = await hooks.dispatch("tool_before", {
      ...toolBefore({ args: { command: "rm -rf /" } }),
      depth: 1,
    });
    expect(outcome.verdict).toBe("allow");
    expect(await readFile(join(root, "count.txt"), "utf8")).toBe("ran\n");
    const reviewerRun = outcome.runs.find((r) => r.hook === "reviewer");
    expect(reviewerRun?.effects ?? []).toEqual([]);
    // At depth 0 the same hook blocks: the skip above was the depth, not the script.
    const top = await hooks.dispatch("tool_before", toolBefore({ args: { command: "rm -rf /" } }));
    expect(top.blockedBy).toEqual({ hook: "reviewer", reason: "would have blocked" });
  });

  it("the reviewer's own tool calls go through the workspace's hooks at depth 1, but not through agent hooks", async () => {
    const { root, hooks } = await workspaceWith(
      [
        reviewer({ matcher: undefined }),
        {
          name: "counter",
          engine: "command",
          events: ["tool_before"],
          command: "cat >> seen.jsonl; echo >> seen.jsonl",
        },
      ],
      [{ toolCalls: [{ name: "list_dir", args: {} }] }, { content: '{"verdict":"allow"}' }],
    );
    const outcome = await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "bash", args: { command: "ls" } }),
    );
    expect(outcome.verdict).toBe("allow");
    // The one review ran to its verdict: no second reviewer took the script's answer on the way.
    expect(outcome.warnings).toEqual([]);
    const seen = (await readFile(join(root, "seen.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).ctx);
    expect(seen.map((c: { tool: string; depth?: number }) => [c.tool, c.depth ?? 0])).toEqual([
      ["bash", 0],
      ["list_dir", 1],
    ]);
  });

  it("a reviewer that keeps calling tools is stopped by maxSteps", async () => {
    const loop = Array.from({ length: 20 }, () => ({ toolCalls: [{ name: "list_dir", args: {} }] }));
    const { hooks, logger } = await workspaceWith([reviewer({ maxSteps: 3, onError: "block" })], loop);
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    expect(outcome.verdict).toBe("block");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_AGENT_NO_VERDICT"]);
    expect(logger.errors.join("\n")).toContain("no verdict within 3 model calls (maxSteps)");
  });

  it("a reviewer that keeps calling tools is stopped by timeoutMs", async () => {
    // An OpenAI-compatible reviewer that always asks for one more list_dir, a little slowly.
    const { url, received: calls } = await openAIStub((_, res) => {
      setTimeout(() => sendJson(res, completion("", [{ name: "list_dir" }])), 40);
    });
    const { hooks, logger } = await workspaceWith([
      reviewer({ model: "openai:reviewer-1", baseUrl: url, maxSteps: 100, timeoutMs: 500, onError: "block" }),
    ]);
    const started = Date.now();
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    const ms = Date.now() - started;
    expect(outcome.verdict).toBe("block");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_HOOK_TIMEOUT"]);
    expect(logger.errors.join("\n")).toContain("no verdict within 500 ms (timeoutMs)");
    expect(ms).toBeLessThan(1_500);
    const count = calls.length;
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThan(100);
    // Stopped means stopped: no model call after the deadline.
    await new Promise((done) => setTimeout(done, 300));
    expect(calls.length).toBe(count);
  });

  it("at turn_after a block asks for another turn, and $ARGUMENTS in the instructions is the step", async () => {
    const { url, received } = await openAIStub((_, res) =>
      sendJson(res, completion('{"verdict":"block","reason":"the tests did not run"}')),
    );
    const { hooks } = await workspaceWith([
      reviewer({
        events: ["turn_after"],
        matcher: undefined,
        model: "openai:reviewer-1",
        baseUrl: url,
        instructions: "Check that the tests ran: $ARGUMENTS",
      }),
    ]);
    const outcome = await hooks.dispatch("turn_after", { sessionId: "s1", answer: "done", messages: [] });
    expect(outcome.continues).toEqual([{ hook: "reviewer", reason: "the tests did not run" }]);
    const system = messagesOf(received[0])[0]?.content;
    expect(system).toContain(
      'Check that the tests ran: {"point":"turn_after","answer":"done","messages":[]}',
    );
  });

  it("a reviewer whose endpoint fails is a model failure, blocked under onError block", async () => {
    const { url } = await openAIStub((_, res) => {
      res.statusCode = 503;
      res.end("warming up");
    });
    const { hooks, logger } = await workspaceWith([
      reviewer({ model: "openai:reviewer-1", baseUrl: url, onError: "block" }),
    ]);
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    expect(outcome.verdict).toBe("block");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_MODEL_FAILED"]);
    expect(logger.errors.join("\n")).toContain("answered 503: warming up");
  });

  it("a skip at depth 1 is a note in the transcript of the run that dispatched it", async () => {
    const { hooks } = await workspaceWith([reviewer()]);
    const events: AgentEvent[] = [];
    const { withTranscript } = await import("../../../runner/agent/transcript-scope.js");
    await withTranscript(
      (e) => events.push(e),
      () => hooks.dispatch("tool_before", { ...toolBefore(), depth: 1 }),
    );
    expect(events).toEqual([
      {
        type: "note",
        text: 'agent hook "reviewer" skipped at tool_before: depth 1 (agent hooks run only at depth 0)',
      },
    ]);
  });

  it("a reviewer reads only inside the workspace, links included", async () => {
    const { root, hooks } = await workspaceWith(
      [reviewer()],
      [
        {
          toolCalls: [
            { name: "read_file", args: { path: "/etc/passwd" } },
            { name: "read_file", args: { path: "../x" } },
            { name: "read_file", args: { path: "etc-link/passwd" } },
            { name: "list_dir", args: { path: "etc-link" } },
            { name: "read_file", args: { path: "NOTES.md" } },
          ],
        },
        { content: '{"verdict":"allow"}' },
      ],
    );
    await symlink("/etc", join(root, "etc-link"));
    const events: AgentEvent[] = [];
    const { withTranscript } = await import("../../../runner/agent/transcript-scope.js");
    await withTranscript(
      (e) => events.push(e),
      () => hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } })),
    );
    const results = events
      .map((e) => (e as { event: AgentEvent }).event)
      .filter((e) => e?.type === "tool_result")
      .map((e) => (e as { ok: boolean; text: string }).text);
    expect(results).toEqual([
      "Error: /etc/passwd is outside the workspace; a reviewer reads only inside it",
      "Error: ../x is outside the workspace; a reviewer reads only inside it",
      "Error: etc-link/passwd is outside the workspace; a reviewer reads only inside it",
      "Error: etc-link is outside the workspace; a reviewer reads only inside it",
      "build/ holds generated files only\n",
    ]);
  });
});

describe("agent engine config errors", () => {
  it.each([
    [
      "an unknown model",
      { model: "claude:haiku" },
      "RUN_ERR_MODEL_UNKNOWN",
      'model "claude:haiku" is not one hookyard knows',
    ],
    [
      "a script that is not there",
      { model: "scripted:missing.json" },
      "RUN_ERR_MODEL_UNKNOWN",
      "missing.json",
    ],
    ["a script that is not JSON", { model: "scripted:NOTES.md" }, "RUN_ERR_SCRIPT_INVALID", "NOTES.md"],
    [
      "a tool it does not have",
      { tools: ["read_file", "grep"] },
      "RUN_ERR_TOOL_UNKNOWN",
      '"grep" is not a tool',
    ],
    ["bash", { tools: ["bash"] }, "RUN_ERR_TOOL_NOT_READONLY", '"bash" changes files or runs commands'],
    ["write_file", { tools: ["list_dir", "write_file"] }, "RUN_ERR_TOOL_NOT_READONLY", '"write_file"'],
  ])(
    "%s: the hook does not load, says why with a code, and blocks where it would have run",
    async (_, settings, code, text) => {
      const { hooks, logger } = await workspaceWith([reviewer(settings)]);
      expect(hooks.problems).toMatchObject([{ name: "reviewer", code }]);
      expect(hooks.problems[0]?.message).toContain(text);
      expect(logger.errors.join("\n")).toContain(code);
      const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
      expect(outcome.verdict).toBe("block");
    },
  );

  it("a tools list that is not a list of names is a config error", async () => {
    const { hooks } = await workspaceWith([reviewer({ tools: "read_file" })]);
    expect(hooks.problems).toMatchObject([{ name: "reviewer", code: "RUN_ERR_CONFIG_INVALID" }]);
    expect(hooks.problems[0]?.message).toContain("tools");
  });
});
