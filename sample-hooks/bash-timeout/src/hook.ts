import { defineHook } from "hookyard";
import { readConfig, type TimeoutConfig } from "./config.js";

/** Config problems already logged: once per session is enough to be seen. */
const reported = new Set<string>();

// No notice: hookyard itself shows the user a bash call whose arguments a hook changed, and a
// notice would be false whenever the user withheld the rewrite grant.
export default defineHook({
  name: "bash-timeout",
  description: "Gives every bash call a timeout, and lowers timeouts above a maximum",
  on: {
    tool_before(ctx, api) {
      // The matcher in package.json already limits this hook to bash; a user's override may not.
      if (ctx.tool !== "bash") return undefined;
      const config = readConfig(api.config);
      for (const problem of config.problems) {
        if (!reported.has(problem)) api.log(problem);
        reported.add(problem);
      }
      const timeout = wantedTimeout(ctx.args.timeout, config);
      if (timeout === undefined) return undefined;
      return { rewrite: { args: { ...ctx.args, timeout } } };
    },
  },
});

/** The timeout a bash call should run with, or undefined to leave the call as it is. */
function wantedTimeout(current: unknown, config: TimeoutConfig): number | undefined {
  if (current === undefined || current === null) return config.seconds;
  if (typeof current === "number" && config.max !== undefined && current > config.max) return config.max;
  // Any other timeout is the model's choice; one the bash tool cannot take, it refuses with its own message.
  return undefined;
}
