import { appendFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AnyCtx } from "../../core/events.js";
import { defineHook, type HookApi } from "../../core/hook.js";

/** Results longer than this are cut in the log line: the log is an audit trail, not a copy of every file read. */
const resultCap = 8 * 1024;

/**
 * One JSON line per tool call (with the chain's verdict) and per result or error, in
 * `.hookyard/logs/audit.jsonl`. Background mode: it never delays the agent and sees the final
 * ctx, so a blocked call is logged with who blocked it.
 */
export function auditLog(root: string) {
  const file = join(root, ".hookyard", "logs", "audit.jsonl");
  let queue: Promise<unknown> = Promise.resolve();
  const append = (record: Record<string, unknown>) => {
    const line = `${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`;
    const write = queue.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, line);
    });
    queue = write.catch(() => undefined);
    return write;
  };
  const base = (ctx: AnyCtx) => ({ sessionId: ctx.sessionId, tool: ctx.tool, callId: ctx.callId });
  return defineHook({
    name: "audit-log",
    description: "Appends every tool call and its result to .hookyard/logs/audit.jsonl",
    mode: "background",
    on: {
      tool_before: (ctx, api: HookApi) =>
        append({
          point: "tool_before",
          ...base(ctx),
          args: ctx.args,
          verdict: api.outcome?.verdict ?? "allow",
          ...(api.outcome?.hook ? { decidedBy: api.outcome.hook, reason: api.outcome.reason } : {}),
        }),
      tool_after: (ctx) => {
        const truncated = ctx.result.length > resultCap;
        return append({
          point: "tool_after",
          ...base(ctx),
          result: truncated ? ctx.result.slice(0, resultCap) : ctx.result,
          ...(truncated ? { truncated: true } : {}),
        });
      },
      tool_error: (ctx) => append({ point: "tool_error", ...base(ctx), error: ctx.error }),
    },
  });
}
