import { defineHook } from "hookyard";

const defaultMaxResultChars = 2000;
/** How long one post may take; the sandbox caps a fetch at 5 s whatever is asked. */
const defaultTimeoutMs = 2000;

/** Set once a call found no url, so an unconfigured hook says so once per sandbox, not per tool call. */
let toldNoUrl = false;

function positiveInt(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The url as it may appear in a log: no user:password@, no query or fragment (tokens live there). */
function shown(url: string): string {
  return url.replace(/\/\/[^/?#]*@/, "//").replace(/[?#].*$/, "");
}

function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  return typeof code === "string" ? `${code}: ${text}` : text;
}

export default defineHook({
  name: "audit-webhook",
  // As in package.json (which an installed package runs by; these serve the file as a workspace hook).
  // 6 s is past the sandbox's 5 s cap on one fetch: a collector that never answers ends as a logged
  // BROKER_ERR_TIMEOUT here (after config.timeoutMs), not as a call stopped by the hook's own
  // timeout, which would cost the isolate.
  mode: "background",
  timeoutMs: 6000,
  on: {
    async tool_after(ctx, api) {
      const url = api.config.url;
      if (typeof url !== "string" || url === "") {
        if (!toldNoUrl)
          api.log('no collector configured: set hooks["audit-webhook"].config.url in hookyard.json');
        toldNoUrl = true;
        return;
      }
      const maxResultChars = positiveInt(api.config.maxResultChars, defaultMaxResultChars);
      const timeoutMs = positiveInt(api.config.timeoutMs, defaultTimeoutMs);
      const record = {
        time: new Date().toISOString(),
        sessionId: ctx.sessionId,
        tool: ctx.tool,
        args: ctx.args,
        result: ctx.result.length > maxResultChars ? ctx.result.slice(0, maxResultChars) : ctx.result,
        callId: ctx.callId,
      };
      // A failed post is logged and ends here: a dead collector costs a line per call, not a hook failure.
      try {
        const response = await api.net.fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(record),
          timeoutMs,
        });
        if (response.status < 200 || response.status > 299) {
          api.log(`${shown(url)} answered ${response.status} to the record of call ${ctx.callId}`);
        }
      } catch (error) {
        api.log(`could not post the record of call ${ctx.callId} to ${shown(url)}: ${describe(error)}`);
      }
    },
  },
});
