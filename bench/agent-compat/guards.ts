/**
 * One check in every form a user would write it: deny a Bash command that runs `rm -rf /`. The
 * hookyard guard is a hook file (the same source is the workspace hook and, packed, the community
 * hook); the sh and python guards are command hooks in that agent's protocol (JSON on stdin, exit 2
 * with the reason on stderr to deny).
 */

/** Every guard gives this reason; the bench checks it reached the answer. */
export const guardReason = "rm -rf / would delete everything";

export const guardHookSource = `import { defineHook } from "hookyard";

export default defineHook({
  name: "guard",
  matcher: { tool: "^bash$" },
  on: {
    tool_before(ctx) {
      const command = typeof ctx.args.command === "string" ? ctx.args.command : "";
      if (/\\brm\\s+-rf\\s+\\/(\\s|$)/.test(command)) return { block: ${JSON.stringify(guardReason)} };
    },
  },
});
`;

/** What a user puts in the agent's settings as the hook's command: the JSON read with cat, the check with grep. */
export const shGuardCommand = [
  "input=$(cat)",
  `case "$input" in *'"tool_name":"Bash"'*) ;; *) exit 0 ;; esac`,
  `if printf '%s' "$input" | grep -Eq '"command":"[^"]*\\brm[[:space:]]+-rf[[:space:]]+/([[:space:]]|")'; then echo '${guardReason}' >&2; exit 2; fi`,
].join("; ");

export const pythonGuardScript = `import json
import re
import sys

event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if event.get("tool_name") == "Bash" and re.search(r"\\brm\\s+-rf\\s+/(\\s|$)", command):
    print(${JSON.stringify(guardReason)}, file=sys.stderr)
    sys.exit(2)
`;
