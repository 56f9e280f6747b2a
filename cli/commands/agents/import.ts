import type { Command, CommandGroup } from "../../command.js";

const claudePlugin = {
  name: "claude-plugin",
  summary: "Turn a Claude Code plugin's hooks/hooks.json into hooks in hookyard.json",
  args: [{ name: "<dir>", description: "the plugin's folder (the one holding hooks/hooks.json)" }],
  options: [
    { flags: "--dry-run", description: "print the change to hookyard.json as a diff and write nothing" },
    {
      flags: "--skip-unsupported",
      description: "import the command hooks even if the plugin has hooks hookyard cannot run",
    },
    {
      flags: "--model <spec>",
      description: "the model for its prompt and agent hooks: openai:<model> or scripted:<file.json>",
    },
    { flags: "--base-url <url>", description: "the OpenAI-compatible endpoint those hooks call" },
  ],
  help: [
    "Each command hook becomes a hookyard.json entry with engine command and profile claude: the script runs unchanged,",
    "with that agent's input on stdin, and $CLAUDE_PLUGIN_ROOT written out as the plugin's folder.",
    "Timeouts become milliseconds; a matcher keeps that agent's form. Hooks already imported are skipped.",
    "With --model, a prompt hook becomes a judge hook and an agent hook an agent hook on that model.",
  ].join("\n"),
  async run(context, args, options) {
    const { importClaudePlugin } = await import("../../agent-settings/import-plugin.js");
    return importClaudePlugin(context, args[0] as string, {
      dryRun: Boolean(options.dryRun),
      skipUnsupported: Boolean(options.skipUnsupported),
      ...(typeof options.model === "string" ? { model: options.model } : {}),
      ...(typeof options.baseUrl === "string" ? { baseUrl: options.baseUrl } : {}),
    });
  },
} satisfies Command;

/** `hookyard import claude-plugin <dir>`: one subcommand per format hookyard can read hooks from. */
export default {
  name: "import",
  summary: "Import hooks written for another tool into hookyard.json",
  subcommands: [claudePlugin],
} satisfies CommandGroup;
