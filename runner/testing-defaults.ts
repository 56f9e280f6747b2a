import type { Point } from "../core/events.js";

/**
 * What `sandboxedHook().run()` fills in for the fields a test leaves out, per point: empty and
 * neutral values of each field the point's schema requires, so a test names only what its hook
 * reads (`run("tool_after", { result: "…" })`) instead of the whole schema. A value the test gives
 * is never replaced.
 */
export function ctxDefaults(point: Point, root: string): Record<string, unknown> {
  const toolCall = { tool: "bash", args: {}, callId: "call-1" };
  const byPoint: Record<Point, Record<string, unknown>> = {
    agent_before: { cwd: root, config: {}, depth: 0 },
    agent_after: { reason: "end", stats: { turns: 0, modelCalls: 0, toolCalls: 0, durationMs: 0 } },
    turn_before: { prompt: "", history: [] },
    turn_after: { answer: "", messages: [] },
    llm_before: { systemPrompt: "", messages: [], tools: [], model: "test-model" },
    llm_after: {
      response: { content: "", toolCalls: [] },
      usage: { inputTokens: 0, outputTokens: 0 },
      latencyMs: 0,
      model: "test-model",
    },
    tool_before: toolCall,
    tool_after: { ...toolCall, result: "" },
    tool_error: { ...toolCall, error: "" },
    compact_before: { messages: [], reason: "manual" },
    notify: { message: "", level: "info" },
  };
  return { sessionId: "test-session", ...byPoint[point] };
}
