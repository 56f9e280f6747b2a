import * as z from "zod";

/** A chat message as the agent loop keeps it and as hooks see it. */
export const messageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  toolCalls: z
    .array(z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }))
    .optional(),
  toolCallId: z.string().optional(),
  name: z.string().optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const toolSpecSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
});
export type ToolSpec = z.infer<typeof toolSpecSchema>;

export const modelResponseSchema = z.looseObject({
  content: z.string(),
  // A name as tool_before requires one: a response (or its rewrite) is refused here, not at the tool call.
  toolCalls: z.array(
    z.object({ id: z.string(), name: z.string().min(1), args: z.record(z.string(), z.unknown()) }),
  ),
});
export type ModelResponse = z.infer<typeof modelResponseSchema>;

const session = { sessionId: z.string().min(1) };
const toolCall = { tool: z.string().min(1), args: z.record(z.string(), z.unknown()), callId: z.string() };

/**
 * The eleven lifecycle points, one row each. Everything else (the `Point` type, ctx types, which
 * effects and rewrites are legal) derives from this table, so a point cannot be half-declared.
 * Schemas are loose: an adapter may carry extra fields (an agent's own ids), hooks may read them.
 */
export const pointTable = {
  /** Session start. Init, inject session context. */
  agent_before: {
    ctx: z.looseObject({
      ...session,
      cwd: z.string(),
      config: z.record(z.string(), z.unknown()),
      depth: z.number().int().min(0),
    }),
    effects: ["inject", "notice"],
    rewritable: [],
  },
  /** Session end. Cleanup, flush; background hooks are drained after this chain. */
  agent_after: {
    ctx: z.looseObject({
      ...session,
      reason: z.string(),
      stats: z.looseObject({
        turns: z.number().int(),
        modelCalls: z.number().int(),
        toolCalls: z.number().int(),
        durationMs: z.number(),
      }),
    }),
    effects: ["notice"],
    rewritable: [],
  },
  /** A user prompt was submitted. May block it (no model call happens) or rewrite it. */
  turn_before: {
    ctx: z.looseObject({ ...session, prompt: z.string(), history: z.array(messageSchema) }),
    effects: ["block", "inject", "notice"],
    rewritable: ["prompt"],
  },
  /** The agent is about to stop. May ask for another turn with `continue` (bounded). */
  turn_after: {
    ctx: z.looseObject({ ...session, answer: z.string(), messages: z.array(messageSchema) }),
    effects: ["continue", "inject", "notice"],
    rewritable: [],
  },
  /** Before each model call. Steering: rewrite the request or inject into it. */
  llm_before: {
    ctx: z.looseObject({
      ...session,
      systemPrompt: z.string(),
      messages: z.array(messageSchema),
      tools: z.array(toolSpecSchema),
      model: z.string(),
    }),
    effects: ["inject", "notice"],
    rewritable: ["systemPrompt", "messages", "tools"],
  },
  /** After each model call. Redaction, metrics. */
  llm_after: {
    ctx: z.looseObject({
      ...session,
      response: modelResponseSchema,
      usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }),
      latencyMs: z.number(),
      model: z.string(),
    }),
    effects: ["inject", "notice"],
    rewritable: ["response"],
  },
  /** Before a tool runs. Guards block or ask; arg rewrites reach the tool. */
  tool_before: {
    ctx: z.looseObject({ ...session, ...toolCall }),
    effects: ["block", "ask", "inject", "notice"],
    rewritable: ["args"],
  },
  /** After a tool succeeded. Audit, result redaction. */
  tool_after: {
    ctx: z.looseObject({ ...session, ...toolCall, result: z.string() }),
    effects: ["inject", "notice"],
    rewritable: ["result"],
  },
  /** After a tool failed. Failure advice for the model. */
  tool_error: {
    ctx: z.looseObject({ ...session, ...toolCall, error: z.string() }),
    effects: ["inject", "notice"],
    rewritable: [],
  },
  /** Before history compaction. Compaction instructions. */
  compact_before: {
    ctx: z.looseObject({ ...session, messages: z.array(messageSchema), reason: z.string() }),
    effects: ["inject", "notice"],
    rewritable: [],
  },
  /** The agent wants the user's attention. */
  notify: {
    ctx: z.looseObject({ ...session, message: z.string(), level: z.enum(["info", "warning", "error"]) }),
    effects: ["inject", "notice"],
    rewritable: [],
  },
} as const satisfies Record<
  string,
  { ctx: z.ZodType; effects: readonly Effect[]; rewritable: readonly string[] }
>;

export const effects = ["block", "ask", "continue", "inject", "notice", "rewrite"] as const;
export type Effect = (typeof effects)[number];

export type Point = keyof typeof pointTable;
export const points = Object.keys(pointTable) as Point[];
export type CtxOf<P extends Point> = z.infer<(typeof pointTable)[P]["ctx"]>;
export type AnyCtx = { sessionId: string; [field: string]: unknown };

export function isPoint(value: string): value is Point {
  return Object.hasOwn(pointTable, value);
}

/** Effects a hook may return at a point; `rewrite` is legal wherever a field is rewritable. */
export function legalEffects(point: Point): ReadonlySet<Effect> {
  return legal[point];
}

export function rewritableFields(point: Point): readonly string[] {
  return pointTable[point].rewritable;
}

export function blockable(point: Point): boolean {
  return legal[point].has("block");
}

export function ctxSchema(point: Point): z.ZodType {
  return pointTable[point].ctx;
}

const legal = Object.fromEntries(
  points.map((point) => {
    const row = pointTable[point];
    const set = new Set<Effect>(row.effects);
    if (row.rewritable.length > 0) set.add("rewrite");
    return [point, set];
  }),
) as unknown as Record<Point, ReadonlySet<Effect>>;

/** Field names a matcher may test at a point: the schema's own keys. */
export function matchableFields(point: Point): readonly string[] {
  return Object.keys((pointTable[point].ctx as z.ZodObject).shape);
}
