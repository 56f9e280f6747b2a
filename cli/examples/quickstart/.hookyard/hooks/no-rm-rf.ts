import { defineHook } from "hookyard";

// A guard: refuse recursive deletes of the home directory or the filesystem root.
export default defineHook({
  name: "no-rm-rf",
  priority: 10,
  matcher: { tool: "^bash$" },
  on: {
    tool_before(ctx) {
      const command = String(ctx.args.command ?? "");
      if (/\brm\s+(-\w*[rR]\w*\s+)+(~|\$HOME|\/)(\s|$|\/\*?)/.test(command)) {
        return { block: `"${command}" would delete your home directory or the whole disk` };
      }
    },
  },
});
