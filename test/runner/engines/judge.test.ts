import { afterEach, describe, expect, it } from "vitest";
import type { Point } from "../../../core/events.js";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { completion, messagesOf, openAIStub, sendJson } from "../../helpers/openai-stub.js";
import { workspace } from "../../helpers/temp.js";

const opened: Hooks[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((hooks) => hooks.close()));
});

const judge = (url: string, settings: Record<string, unknown> = {}) => ({
  name: "judge",
  engine: "judge",
  events: ["tool_before"],
  model: "openai:judge-1",
  baseUrl: url,
  prompt: "Is this safe to run in CI? $ARGUMENTS",
  ...settings,
});

async function load(entries: unknown[], env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const root = await workspace({ "hookyard.json": { rules: entries } });
    const logger = recordingLogger();
    const hooks = await loadHooks({ cwd: root, logger, prestart: false });
    opened.push(hooks);
    return { hooks, logger };
  } finally {
    process.env = saved;
  }
}

/** A judge at a stub endpoint that answers every call with `content`. */
async function judgeAnswering(content: string, settings: Record<string, unknown> = {}) {
  const stub = await openAIStub((_, res) => sendJson(res, completion(content)));
  const { hooks, logger } = await load([judge(stub.url, settings)]);
  return { ...stub, hooks, logger };
}

const rmRf = () => toolBefore({ args: { command: "rm -rf /" } });

describe("judge engine", () => {
  it("sends the tool call to the model in one request and blocks with its reason", async () => {
    const { hooks, received } = await judgeAnswering('{"ok":false,"reason":"deletes the disk"}');
    const outcome = await hooks.dispatch("tool_before", rmRf());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy).toEqual({ hook: "judge", reason: "deletes the disk" });
    expect(received).toHaveLength(1);
    const request = received[0] as {
      model: string;
      messages: Array<{ role: string; content: string }>;
      tools?: unknown;
    };
    expect(request.model).toBe("judge-1");
    expect(request.tools).toBeUndefined();
    const user = request.messages.find((m) => m.role === "user")?.content ?? "";
    expect(user.startsWith("Is this safe to run in CI? {")).toBe(true);
    const json = JSON.parse(user.slice("Is this safe to run in CI? ".length));
    expect(json).toEqual({ point: "tool_before", tool: "bash", args: { command: "rm -rf /" }, callId: "c1" });
    expect(request.messages[0]?.content).toContain('{"ok":false,"reason":"<why>"}');
  });

  it("lets the call go ahead when the model says ok", async () => {
    const { hooks, logger } = await judgeAnswering(' {"ok":true} \n');
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toMatchObject([{ hook: "judge", status: "ok", effects: [] }]);
    expect(logger.errors).toEqual([]);
  });

  it("appends the step as JSON when the prompt has no $ARGUMENTS, and sends the key from apiKeyEnv", async () => {
    const stub = await openAIStub((_, res) => sendJson(res, completion('{"ok":true}')));
    const { hooks } = await load([judge(stub.url, { prompt: "Judge this step.", apiKeyEnv: "JUDGE_KEY" })], {
      JUDGE_KEY: "sk-test",
    });
    await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    const user = messagesOf(stub.received[0])[1]?.content ?? "";
    expect(user).toMatch(/^Judge this step\.\n\n\{"point":"tool_before","tool":"bash"/);
    expect(stub.authorization).toEqual(["Bearer sk-test"]);
  });

  it.each<[Point, Record<string, unknown>, string]>([
    ["turn_before", { prompt: "delete everything", history: [] }, "block"],
    ["turn_after", { answer: "done", messages: [] }, "continue"],
    ["tool_after", { tool: "bash", args: {}, callId: "c1", result: "ok" }, "notice"],
  ])("ok false at %s is a %s", async (point, ctx, effect) => {
    const { hooks } = await judgeAnswering('{"ok":false,"reason":"not yet"}', { events: [point] });
    const outcome = await hooks.dispatch(point, { sessionId: "s1", ...ctx } as never);
    expect(outcome.runs).toMatchObject([{ hook: "judge", status: "ok", effects: [effect] }]);
  });

  it.each([
    ["prose", "Looks safe to me."],
    ["ok false without a reason", '{"ok":false}'],
    ["an extra field", '{"ok":true,"score":1}'],
    ["ok as a string", '{"ok":"true"}'],
    ["a code fence", '```json\n{"ok":true}\n```'],
  ])("%s is a hook error: allowed under onError open, blocked under onError block", async (_, content) => {
    const open = await judgeAnswering(content);
    const opened = await open.hooks.dispatch("tool_before", rmRf());
    expect(opened.verdict).toBe("allow");
    expect(opened.warnings.map((w) => w.code)).toEqual(["RUN_ERR_VERDICT_INVALID"]);
    const closed = await judgeAnswering(content, { onError: "block" });
    const blocked = await closed.hooks.dispatch("tool_before", rmRf());
    expect(blocked.verdict).toBe("block");
    expect(blocked.warnings.map((w) => w.code)).toEqual(["RUN_ERR_VERDICT_INVALID"]);
    expect(closed.logger.errors.join("\n")).toContain("the model's verdict is");
  });

  it("a slow answer is a timeout, blocked under onError block, within timeoutMs", async () => {
    const stub = await openAIStub((_, res) => {
      setTimeout(() => sendJson(res, completion('{"ok":true}')), 3_000).unref();
    });
    const { hooks, logger } = await load([judge(stub.url, { timeoutMs: 300, onError: "block" })]);
    const started = Date.now();
    const outcome = await hooks.dispatch("tool_before", rmRf());
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(outcome.verdict).toBe("block");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_HOOK_TIMEOUT"]);
    expect(logger.errors.join("\n")).toContain("did not answer within 300 ms");
  });

  it("an endpoint that fails is a model failure, handled by onError", async () => {
    const stub = await openAIStub((_, res) => {
      res.statusCode = 500;
      res.end("overloaded");
    });
    const { hooks, logger } = await load([judge(stub.url, { onError: "block" })]);
    const outcome = await hooks.dispatch("tool_before", rmRf());
    expect(outcome.verdict).toBe("block");
    expect(outcome.warnings.map((w) => w.code)).toEqual(["RUN_ERR_MODEL_FAILED"]);
    expect(logger.errors.join("\n")).toContain("answered 500: overloaded");
  });

  it("a scripted judge answers from its script", async () => {
    const root = await workspace({
      "hookyard.json": { rules: [{ ...judge(""), baseUrl: undefined, model: "scripted:judge.json" }] },
      "judge.json": { responses: [{ content: '{"ok":false,"reason":"scripted no"}' }] },
    });
    const hooks = await loadHooks({ cwd: root, logger: recordingLogger(), prestart: false });
    opened.push(hooks);
    const outcome = await hooks.dispatch("tool_before", rmRf());
    expect(outcome.blockedBy).toEqual({ hook: "judge", reason: "scripted no" });
  });

  it("an unknown model is a config error with a code, and the hook fails closed", async () => {
    const { hooks } = await load([judge("http://127.0.0.1:9/v1", { model: "anthropic:haiku" })]);
    expect(hooks.problems).toMatchObject([{ name: "judge", code: "RUN_ERR_MODEL_UNKNOWN" }]);
    expect((await hooks.dispatch("tool_before", rmRf())).verdict).toBe("block");
  });
});
