import { defineHook } from "hookyard";
import { readConfig } from "./config.js";
import { redact } from "./redact.js";

/** Config problems already logged: once per session is enough to be seen. */
const reported = new Set<string>();

function settings(config: Readonly<Record<string, unknown>>, log: (text: string) => void) {
  const parsed = readConfig(config);
  for (const problem of parsed.problems) {
    if (!reported.has(problem)) log(problem);
    reported.add(problem);
  }
  return parsed;
}

// No notice: the rewrite is the news. hookyard shows the changed result in the transcript, and a
// notice saying "redacted" would be false whenever the user withheld the rewrite grant.
export default defineHook({
  name: "secret-redactor",
  description: "Replaces keys, tokens, private keys and passwords in tool results and model replies",
  on: {
    tool_after(ctx, api) {
      const result = redact(ctx.result, settings(api.config, api.log));
      return result === ctx.result ? undefined : { rewrite: { result } };
    },
    llm_after(ctx, api) {
      const content = redact(ctx.response.content, settings(api.config, api.log));
      if (content === ctx.response.content) return undefined;
      return { rewrite: { response: { ...ctx.response, content } } };
    },
  },
});
