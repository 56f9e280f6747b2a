import type { CtxOf } from "../../core/events.js";

/** A valid tool_before ctx: a bash call with nested args to mutate. */
export function toolBefore(overrides: Partial<CtxOf<"tool_before">> = {}): CtxOf<"tool_before"> {
  return {
    sessionId: "s1",
    tool: "bash",
    args: { command: "ls -la", env: { PATH: "/usr/bin" }, flags: ["-l", "-a"] },
    callId: "c1",
    ...overrides,
  };
}

/** A valid tool_after ctx for the same bash call. */
export function toolAfter(overrides: Partial<CtxOf<"tool_after">> = {}): CtxOf<"tool_after"> {
  return { ...toolBefore(), result: "total 0", ...overrides };
}

export function turnBefore(prompt = "hello"): CtxOf<"turn_before"> {
  return { sessionId: "s1", prompt, history: [{ role: "user", content: "earlier" }] };
}

export function turnAfter(): CtxOf<"turn_after"> {
  return { sessionId: "s1", answer: "done", messages: [{ role: "assistant", content: "done" }] };
}

export function agentAfter(): CtxOf<"agent_after"> {
  return {
    sessionId: "s1",
    reason: "finished",
    stats: { turns: 1, modelCalls: 1, toolCalls: 1, durationMs: 10 },
  };
}
