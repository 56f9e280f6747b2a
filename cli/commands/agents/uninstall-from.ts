import type { Command } from "../../command.js";

export default {
  name: "uninstall-from",
  summary:
    "Remove what install-into added to a coding agent's settings file (or plugin folder), and nothing else",
  args: [
    {
      name: "<agent>",
      description:
        "the agent: claude (Claude Code), gemini (Gemini CLI), codex (Codex), pi (Pi) or opencode (OpenCode)",
    },
  ],
  options: [
    {
      flags: "--project",
      description:
        "the project's .claude/settings.json (.gemini/ for gemini, .codex/hooks.json for codex, .pi/extensions/hookyard/ for pi; the default)",
    },
    {
      flags: "--user",
      description:
        "~/.claude/settings.json (~/.gemini/ for gemini, $CODEX_HOME/hooks.json for codex, ~/.pi/agent/extensions/hookyard/ for pi)",
    },
    { flags: "--dry-run", description: "print the change as a diff and write nothing" },
  ],
  async run(context, args, options) {
    const { checkAgent, scopeOf, uninstallFrom } = await import("../../agent-settings/install-into.js");
    const { agentExtensionNamed } = await import("../../../adapters/agent-extension.js");
    const extension = agentExtensionNamed(args[0]);
    if (extension !== undefined) {
      const { uninstallExtensionFrom } = await import("../../agent-settings/install-extension.js");
      const scope = scopeOf(options);
      return uninstallExtensionFrom(context, { agent: extension, scope, dryRun: Boolean(options.dryRun) });
    }
    const { agentPluginFileNamed } = await import("../../../adapters/agent-plugin-file.js");
    const pluginAgent = agentPluginFileNamed(args[0]);
    if (pluginAgent) {
      const { uninstallPluginFile } = await import("../../agent-settings/install-plugin-file.js");
      const scope = scopeOf(options);
      return uninstallPluginFile(context, { agent: pluginAgent, scope, dryRun: Boolean(options.dryRun) });
    }
    const agent = checkAgent(args[0]);
    return uninstallFrom(context, { agent, scope: scopeOf(options), dryRun: Boolean(options.dryRun) });
  },
} satisfies Command;
