import type { Command } from "../command.js";

export default {
  name: "demo",
  summary:
    "See the whole story in one command: publish six sample hooks, install them sandboxed, run an agent with them",
  help: [
    "Starts an embedded registry in a temporary folder, packs and publishes the six sample hooks,",
    "installs them into a temporary workspace with --sandbox and the least grants each needs, then",
    "runs two scripted agent sessions: `rm -rf ~` is blocked, an AWS key is redacted before the model",
    "sees it, the testing conventions are injected when tests come up, a long bash command gets a",
    "timeout, and a todo list survives into the next session. Works offline; removes what it made.",
  ].join("\n"),
  async run(context) {
    const { runDemo } = await import("../demo/run-demo.js");
    return runDemo(context);
  },
} satisfies Command;
