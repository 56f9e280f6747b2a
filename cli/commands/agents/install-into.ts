import { defaultServePort } from "../../../adapters/serve/defaults.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { portOption } from "../../options/port.js";

export default {
  name: "install-into",
  summary: "Route a coding agent's hooks to hookyard, in that agent's settings file",
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
        "write the project's .claude/settings.json (.gemini/ for gemini, .codex/hooks.json for codex, .pi/extensions/hookyard/ for pi; the default)",
    },
    {
      flags: "--user",
      description:
        "write ~/.claude/settings.json (~/.gemini/ for gemini, $CODEX_HOME/hooks.json for codex, ~/.pi/agent/extensions/hookyard/ for pi; every project)",
    },
    {
      flags: "--http",
      description:
        "route to the hookyard serve daemon (http hooks) instead of a process per event (claude only)",
    },
    { flags: "--port <port>", description: `the daemon's port, with --http (default ${defaultServePort})` },
    { flags: "--dry-run", description: "print the change as a diff and write nothing" },
  ],
  help: [
    "Adds one hook per mapped event (PreToolUse, PostToolUse, PostToolUseFailure, UserPromptSubmit, Stop,",
    "SubagentStop, SessionStart, SessionEnd, PreCompact, Notification) that runs",
    "`hookyard exec --profile claude <Event>`, or with --http calls `hookyard serve` (SessionStart still runs",
    "exec: Claude Code calls no http hook there). Your own hooks stay as they are; running it again changes",
    "nothing; `hookyard uninstall-from claude` takes it out again.",
    "",
    "For gemini: one command hook per mapped event (BeforeTool, AfterTool, BeforeAgent, AfterAgent,",
    "SessionStart, SessionEnd, PreCompress, Notification) in .gemini/settings.json, running",
    "`hookyard exec --profile gemini <Event>`; Gemini CLI has no http hooks, so no --http.",
    "",
    "For codex: one command hook per mapped event (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart,",
    "SessionEnd, PreCompact) in .codex/hooks.json ($CODEX_HOME/hooks.json with --user), running",
    "`hookyard exec --profile codex <Event>`. Codex runs them only once you trust them in its /hooks panel.",
    "",
    "For pi: Pi has no hook settings, only extensions: hookyard's extension goes in .pi/extensions/hookyard/",
    "(~/.pi/agent/extensions/ with --user), and runs `hookyard exec --profile pi <event>` for each event.",
    "",
    "For opencode: hookyard's OpenCode plugin, written to .opencode/plugins/hookyard.ts (--user:",
    "~/.config/opencode/plugins/), runs `hookyard exec --profile opencode <event>` for each tool call,",
    "prompt and session event; a file there that hookyard did not write is left alone and refused.",
  ].join("\n"),
  async run(context, args, options) {
    const { checkAgent, installInto, scopeOf } = await import("../../agent-settings/install-into.js");
    const { agentExtensionNamed } = await import("../../../adapters/agent-extension.js");
    const extension = agentExtensionNamed(args[0]);
    if (extension !== undefined) {
      if (options.http || options.port !== undefined) {
        throw new CliError(
          "CLI_ERR_USAGE",
          `${extension.title} runs hookyard from an extension: no --http`,
          exitCodes.usage,
        );
      }
      const { installExtensionInto } = await import("../../agent-settings/install-extension.js");
      const scope = scopeOf(options);
      return installExtensionInto(context, { agent: extension, scope, dryRun: Boolean(options.dryRun) });
    }
    const { agentPluginFileNamed } = await import("../../../adapters/agent-plugin-file.js");
    const pluginAgent = agentPluginFileNamed(args[0]);
    if (pluginAgent) {
      if (options.http || options.port !== undefined) {
        throw new CliError("CLI_ERR_USAGE", `--http and --port are for claude only`, exitCodes.usage);
      }
      const { installPluginFile } = await import("../../agent-settings/install-plugin-file.js");
      const scope = scopeOf(options);
      return installPluginFile(context, { agent: pluginAgent, scope, dryRun: Boolean(options.dryRun) });
    }
    const agent = checkAgent(args[0]);
    if (options.port !== undefined && !options.http) {
      throw new CliError("CLI_ERR_USAGE", "--port goes with --http", exitCodes.usage);
    }
    const port = options.port === undefined ? defaultServePort : portOption(options.port, 1);
    return installInto(context, {
      agent,
      scope: scopeOf(options),
      dryRun: Boolean(options.dryRun),
      ...(options.http ? { http: { port } } : {}),
    });
  },
} satisfies Command;
