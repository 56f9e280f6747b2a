import type { Command } from "../command.js";

// Placeholder while the command is being built.
export default {
  name: "revoke",
  summary: "(being built)",
  async run() {
    return 1;
  },
} satisfies Command;
