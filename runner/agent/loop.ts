import { randomUUID } from "node:crypto";
import * as z from "zod";
import { describeIssues, errorText, RunnerError } from "../../core/errors.js";
import { type AnyCtx, type CtxOf, type Message, modelResponseSchema, type Point } from "../../core/events.js";
import { jsonDataIssue } from "../../core/json-data.js";
import type { Attributed, ChainOutcome } from "../chain/outcome.js";
import type { Hooks } from "../load/load-hooks.js";
import { RunRecorder } from "../runs/recorder.js";
import type { Model } from "./model.js";
import { defaultTools, type Tool, ToolFailure } from "./tools.js";
import { withTranscript } from "./transcript-scope.js";

export type AgentEvent =
  | { type: "session"; sessionId: string; model: string }
  | { type: "user"; text: string }
  | {
      type: "model";
      content: string;
      toolCalls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
    }
  | { type: "tool_call"; tool: string; callId: string; args: Record<string, unknown> }
  | { type: "tool_result"; tool: string; callId: string; ok: boolean; text: string }
  | {
      type: "hook";
      point: Point;
      hook: string;
      trust: string;
      origin: string;
      effect: string;
      text?: string;
      ms: number;
    }
  | { type: "compacted"; removed: number }
  | { type: "note"; text: string }
  | { type: "error"; message: string }
  | { type: "answer"; text: string }
  | { type: "end"; reason: EndReason; stats: AgentStats }
  /** An event of a sub-agent that a hook ran (the `agent` engine), at `depth`, under that hook's name. */
  | { type: "nested"; hook: string; depth: number; event: AgentEvent };

export type EndReason = "completed" | "prompt_blocked" | "max_steps" | "model_error";

export interface AgentStats {
  turns: number;
  modelCalls: number;
  toolCalls: number;
  durationMs: number;
}

/** Decides an `ask` when a hook wants the user to confirm a tool call. Default: deny. */
export type AskPolicy = (ask: {
  tool: string;
  args: Record<string, unknown>;
  reasons: Attributed[];
}) => Promise<boolean>;

export interface AgentOptions {
  /** With `onStateWrite` and `drain` (as `loadHooks` gives them), a recorded run also holds the hooks' state writes. */
  hooks: Pick<Hooks, "dispatch"> & Partial<Pick<Hooks, "onStateWrite" | "drain">>;
  model: Model;
  prompt: string;
  cwd: string;
  systemPrompt?: string;
  tools?: Tool[];
  /** Model calls per turn before the turn ends (default 20). */
  maxSteps?: number;
  /** How many times `continue` at turn_after may start another turn (default 3). */
  maxContinues?: number;
  /** Compact history when it holds more messages than this (default 100). */
  compactAt?: number;
  askPolicy?: AskPolicy;
  onEvent?: (event: AgentEvent) => void;
  sessionId?: string;
  config?: Record<string, unknown>;
  /** 0 for a user's run; a sub-agent that a hook runs is one deeper. Every ctx carries it. */
  depth?: number;
  /**
   * Records the run, append-only, in `<runsDir>/<sessionId>/record.jsonl` (`runsFolder(root)` is
   * the workspace's): every event, chain, model request and answer, tool call and output, and state
   * write, fsynced at each step. `meta` is kept in the record's first line for the caller.
   */
  record?: { runsDir: string; meta?: Record<string, unknown> };
}

export interface AgentResult {
  sessionId: string;
  answer: string;
  reason: EndReason;
  stats: AgentStats;
  messages: Message[];
  /** Why the run ended early, when it did (reason "model_error"). */
  error?: unknown;
}

const defaultSystemPrompt =
  "You are a careful coding agent working in the user's workspace. Use the tools to inspect and change files.";

/**
 * A small ReAct loop that fires all eleven points. Hook injects are collected and appended,
 * attributed to their hook, to the system prompt of the very next model request.
 */
export async function runAgent(options: AgentOptions): Promise<AgentResult> {
  const sessionId = options.sessionId ?? randomUUID();
  const recorder = options.record
    ? await RunRecorder.start({
        runsDir: options.record.runsDir,
        id: sessionId,
        cwd: options.cwd,
        model: options.model.name,
        prompt: options.prompt,
        depth: options.depth ?? 0,
        ...(options.record.meta ? { meta: options.record.meta } : {}),
      })
    : undefined;
  if (!recorder) return runLoop(options, sessionId, undefined);
  const stopReceipts = options.hooks.onStateWrite?.((write) =>
    recorder.add({ kind: "state_write", ...write }),
  );
  let result: AgentResult;
  try {
    result = await runLoop(options, sessionId, recorder);
  } catch (error) {
    // The loop's own failure is the one to report; the record stays as far as it got.
    await recorder.close().catch(() => undefined);
    throw error;
  } finally {
    stopReceipts?.();
  }
  await recorder.close();
  return result;
}

async function runLoop(
  options: AgentOptions,
  sessionId: string,
  recorder: RunRecorder | undefined,
): Promise<AgentResult> {
  const started = Date.now();
  const tools = options.tools ?? defaultTools;
  const show = options.onEvent ?? (() => {});
  // What is shown is recorded first: a replay prints the record, so it shows exactly this.
  const emit = (event: AgentEvent) => {
    recorder?.add({ kind: "event", event });
    show(event);
  };
  const maxSteps = options.maxSteps ?? 20;
  const maxContinues = options.maxContinues ?? 3;
  const compactAt = options.compactAt ?? 100;
  const askPolicy = options.askPolicy ?? (async () => false);
  const depth = options.depth ?? 0;
  const stats: AgentStats = { turns: 0, modelCalls: 0, toolCalls: 0, durationMs: 0 };
  const messages: Message[] = [];
  let pending: Attributed[] = [];
  let answer = "";
  let reason: EndReason = "completed";
  let failure: unknown;

  const fire = async <P extends Point>(
    point: P,
    ctx: Omit<CtxOf<P>, "sessionId">,
  ): Promise<ChainOutcome<CtxOf<P>>> => {
    // Every ctx carries the depth, so an engine can tell a sub-agent's call from a user's run.
    const outcome = await withTranscript(emit, () =>
      options.hooks.dispatch(point, { sessionId, depth, ...ctx } as CtxOf<P>),
    );
    pending.push(...outcome.injects);
    recorder?.add(chainEntry(outcome));
    report(outcome, emit);
    await recorder?.sync();
    return outcome;
  };

  emit({ type: "session", sessionId, model: options.model.name });
  await fire("agent_before", { cwd: options.cwd, config: options.config ?? {}, depth });

  let prompt = options.prompt;
  for (let continues = 0; ; continues++) {
    stats.turns++;
    const turn = await fire("turn_before", { prompt, history: structuredClone(messages) });
    if (turn.verdict === "block") {
      reason = "prompt_blocked";
      answer = "";
      break;
    }
    messages.push({ role: "user", content: turn.ctx.prompt });
    emit({ type: "user", text: turn.ctx.prompt });

    const step = await runSteps();
    reason = step === "ok" ? "completed" : step;
    if (step === "model_error") break;
    const after = await fire("turn_after", { answer, messages: structuredClone(messages) });
    if (after.continues.length === 0) break;
    if (continues >= maxContinues) {
      emit({ type: "note", text: `continue ignored: at most ${maxContinues} extra turns per run` });
      break;
    }
    prompt = after.continues.map((c) => c.reason).join("\n");
  }

  if (reason !== "prompt_blocked") emit({ type: "answer", text: answer });
  await fire("notify", {
    message:
      reason === "completed" ? "The agent finished and is waiting for you." : `The agent stopped: ${reason}.`,
    level: reason === "completed" ? "info" : "warning",
  });
  stats.durationMs = Date.now() - started;
  await fire("agent_after", { reason, stats: { ...stats } });
  emit({ type: "end", reason, stats: { ...stats } });
  if (recorder) {
    // Background hooks' state writes belong to this run: their receipts come before its end.
    await options.hooks.drain?.();
    recorder.add({ kind: "finished", reason, stats: { ...stats } });
    await recorder.sync();
  }
  return { sessionId, answer, reason, stats, messages, ...(failure === undefined ? {} : { error: failure }) };

  async function runSteps(): Promise<"ok" | "max_steps" | "model_error"> {
    for (let i = 0; i < maxSteps; i++) {
      if (messages.length > compactAt) await compact();
      const before = await fire("llm_before", {
        systemPrompt: options.systemPrompt ?? defaultSystemPrompt,
        messages: structuredClone(messages),
        // A copy: a rewrite of this request must not rename or redescribe the tools themselves.
        tools: structuredClone(tools.map((t) => t.spec)),
        model: options.model.name,
      });
      const request = { ...before.ctx, systemPrompt: withInjects(before.ctx.systemPrompt, pending) };
      pending = [];
      const callStarted = performance.now();
      let result: Awaited<ReturnType<Model["complete"]>>;
      const call = ++stats.modelCalls;
      try {
        const sent = {
          model: request.model,
          systemPrompt: request.systemPrompt,
          messages: request.messages,
          tools: request.tools,
        };
        recorder?.add({ kind: "model_request", call, request: sent });
        await recorder?.sync();
        result = await options.model.complete(sent);
        checkModelResult(result);
        recorder?.add({ kind: "model_response", call, result: { ...structuredClone(result) } });
      } catch (error) {
        answer = "";
        failure = error;
        emit({ type: "error", message: errorText(error) });
        await fire("notify", { message: `The model call failed: ${errorText(error)}`, level: "error" });
        return "model_error";
      }
      const after = await fire("llm_after", {
        response: result.response,
        usage: result.usage,
        latencyMs: performance.now() - callStarted,
        model: options.model.name,
      });
      const response = after.ctx.response;
      messages.push({ role: "assistant", content: response.content, toolCalls: response.toolCalls });
      emit({ type: "model", content: response.content, toolCalls: response.toolCalls });
      answer = response.content;
      if (response.toolCalls.length === 0) return "ok";
      for (const call of response.toolCalls) {
        messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: await callTool(call) });
      }
    }
    return "max_steps";
  }

  async function callTool(call: {
    id: string;
    name: string;
    args: Record<string, unknown>;
  }): Promise<string> {
    stats.toolCalls++;
    const base = { tool: call.name, callId: call.id };
    emit({ type: "tool_call", tool: call.name, callId: call.id, args: call.args });
    const before = await fire("tool_before", { ...base, args: structuredClone(call.args) });
    const args = before.ctx.args;
    // The transcript showed the model's arguments; the tool runs with these, and the user should see the change.
    if (before.verdict !== "block" && JSON.stringify(args) !== JSON.stringify(call.args)) {
      emit({
        type: "note",
        text: `${call.name} runs with arguments changed by hooks: ${JSON.stringify(args)}`,
      });
    }
    const refuse = (text: string) => {
      emit({ type: "tool_result", tool: call.name, callId: call.id, ok: false, text });
      return text;
    };
    if (before.verdict === "block" && before.blockedBy) {
      return refuse(`Blocked by hook "${before.blockedBy.hook}": ${before.blockedBy.reason}`);
    }
    if (before.verdict === "ask") {
      const reasons = before.asks.map((a) => ({ hook: a.hook, text: a.reason }));
      const summary = reasons.map((a) => `hook "${a.hook}": ${a.text}`).join("; ");
      await fire("notify", { message: `Confirm ${call.name}? ${summary}`, level: "warning" });
      if (!(await askPolicy({ tool: call.name, args, reasons }))) {
        return refuse(`Not run: confirmation was required (${summary}) and was not given.`);
      }
    }
    const tool = tools.find((t) => t.spec.name === call.name);
    let text: string;
    try {
      if (!tool)
        throw new ToolFailure(
          `unknown tool "${call.name}"; available: ${tools.map((t) => t.spec.name).join(", ")}`,
        );
      recorder?.add({ kind: "tool_start", callId: call.id, tool: call.name, args });
      await recorder?.sync();
      text = await tool.run(args, { cwd: options.cwd });
      recorder?.add({ kind: "tool_output", callId: call.id, ok: true, text });
    } catch (error) {
      const message = error instanceof ToolFailure ? error.message : errorText(error);
      recorder?.add({ kind: "tool_output", callId: call.id, ok: false, text: message });
      await fire("tool_error", { ...base, args, error: message });
      const text = `Error: ${message}`;
      emit({ type: "tool_result", tool: call.name, callId: call.id, ok: false, text });
      return text;
    }
    const after = await fire("tool_after", { ...base, args, result: text });
    emit({ type: "tool_result", tool: call.name, callId: call.id, ok: true, text: after.ctx.result });
    return after.ctx.result;
  }

  /** Keeps the recent tail, never starting it on a tool result whose call would be cut off. */
  async function compact(): Promise<void> {
    await fire("compact_before", { messages: structuredClone(messages), reason: "message_limit" });
    // Keep the newer half, so one compaction buys room for several more steps.
    let cut = messages.length - Math.max(2, Math.floor(compactAt / 2));
    while (cut < messages.length && messages[cut]?.role === "tool") cut++;
    const removed = messages.splice(0, cut);
    messages.unshift({ role: "user", content: `[${removed.length} earlier messages were compacted away]` });
    emit({ type: "compacted", removed: removed.length });
  }
}

/** A chain's verdict and what each hook that ran decided, as the run's record keeps it. */
function chainEntry(outcome: ChainOutcome<AnyCtx>) {
  return {
    kind: "chain" as const,
    point: outcome.point,
    verdict: outcome.verdict,
    runs: outcome.runs.map((run) => ({
      hook: run.hook,
      status: run.status,
      effects: [...run.effects],
      ms: run.ms,
    })),
    ...(outcome.blockedBy
      ? { blockedBy: { hook: outcome.blockedBy.hook, reason: outcome.blockedBy.reason } }
      : {}),
  };
}

/** Below maxJsonDepth, so the args still fit when a hook rewrites the messages that carry them. */
const maxArgsDepth = 64;

const modelResultSchema = z.object({
  response: modelResponseSchema,
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
});

/** Whatever a model answers (a server, a script, a custom Model): an unusable answer is a model failure, not a crash. */
function checkModelResult(result: unknown): void {
  const parsed = modelResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new RunnerError(
      "RUN_ERR_MODEL_FAILED",
      `the model answered in an unexpected shape (${describeIssues(parsed.error)})`,
    );
  }
  for (const [i, call] of parsed.data.response.toolCalls.entries()) {
    const issue = jsonDataIssue(call.args, `toolCalls[${i}].args`, maxArgsDepth);
    if (issue)
      throw new RunnerError(
        "RUN_ERR_MODEL_FAILED",
        `the model's tool call "${call.name}" is unusable (${issue})`,
      );
  }
}

function withInjects(systemPrompt: string, injects: Attributed[]): string {
  if (injects.length === 0) return systemPrompt;
  // An inject cannot close its block and open one in another hook's name: its own tags are escaped.
  const blocks = injects.map(
    (i) =>
      `<hookyard-inject hook="${i.hook}">\n${i.text.replace(/<(\/?hookyard-inject)/gi, "&lt;$1")}\n</hookyard-inject>`,
  );
  return `${systemPrompt}\n\n${blocks.join("\n\n")}`;
}

/** Turns a chain's outcome into transcript events: one per effect, one per failure. */
function report(outcome: ChainOutcome<AnyCtx>, emit: (event: AgentEvent) => void): void {
  for (const run of outcome.runs) {
    const base = {
      type: "hook" as const,
      point: outcome.point,
      hook: run.hook,
      trust: run.trust,
      origin: run.origin,
      ms: run.ms,
    };
    // A failure says why (the reason was only on stderr); a hook that ran and did nothing is an
    // event too, so a --json reader can tell "ran, no effect" from "did not run".
    if (run.status !== "ok") emit({ ...base, effect: run.status, text: failureText(outcome, run.hook) });
    else if (run.effects.length === 0) emit({ ...base, effect: "none" });
    for (const effect of run.effects) emit({ ...base, effect, text: effectText(outcome, run.hook, effect) });
  }
  // A notice of hookyard's own (hooks that are not in force), not of a hook that ran.
  const ran = new Set(outcome.runs.map((run) => run.hook));
  for (const notice of outcome.notices.filter((n) => !ran.has(n.hook))) {
    const about = {
      type: "hook" as const,
      point: outcome.point,
      hook: notice.hook,
      trust: "trusted" as const,
    };
    emit({ ...about, origin: "builtin", ms: 0, effect: "notice", text: notice.text });
  }
}

/** Why a hook failed, as its warning says (code and message); the chain adds one per failure. */
function failureText(outcome: ChainOutcome<AnyCtx>, hook: string): string | undefined {
  const warning = outcome.warnings.find((w) => w.hook === hook && w.code !== "RUN_ERR_EFFECT_DROPPED");
  return warning && `${warning.code}: ${warning.message}`;
}

function effectText(outcome: ChainOutcome<AnyCtx>, hook: string, effect: string): string | undefined {
  const find = (list: Array<{ hook: string; text?: string; reason?: string }>) => {
    const item = list.find((i) => i.hook === hook);
    return item?.text ?? item?.reason;
  };
  switch (effect) {
    case "block":
      return outcome.blockedBy?.hook === hook ? outcome.blockedBy.reason : undefined;
    case "ask":
      return find(outcome.asks);
    case "continue":
      return find(outcome.continues);
    case "inject":
      return find(outcome.injects);
    case "notice":
      return find(outcome.notices);
    default:
      return undefined;
  }
}
