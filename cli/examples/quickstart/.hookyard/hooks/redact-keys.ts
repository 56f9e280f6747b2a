import { defineHook } from "hookyard";

// A redactor: AWS access key ids never reach the model.
export default defineHook({
  name: "redact-keys",
  on: {
    tool_after(ctx) {
      const redacted = ctx.result.replace(/\bAKIA[0-9A-Z]{16}\b/g, "[redacted:aws-key]");
      if (redacted !== ctx.result) {
        ctx.result = redacted;
        return { notice: "redacted an AWS access key from a tool result" };
      }
    },
  },
});
