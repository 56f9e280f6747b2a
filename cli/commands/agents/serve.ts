import {
  defaultServeHost,
  defaultServePort,
  serveTokenEnv,
  serveTokenFile,
} from "../../../adapters/serve/defaults.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { portOption } from "../../options/port.js";

export default {
  name: "serve",
  summary: "Keep the workspace's hooks loaded and answer coding agents' http hooks on loopback",
  options: [
    {
      flags: "--port <port>",
      description: "TCP port (0 picks a free one)",
      default: String(defaultServePort),
    },
    { flags: "--host <address>", description: `address to listen on (default ${defaultServeHost})` },
    { flags: "--socket <path>", description: "listen on a unix socket instead of TCP" },
    {
      flags: "--token-file <file>",
      description: `the bearer token agents must send (default: a new one, written to ${serveTokenFile})`,
    },
  ],
  help: [
    "Agents POST their hook input to /claude/<Event> with Authorization: Bearer <token>, and get the",
    `answer as JSON. In their settings: "headers": { "Authorization": "Bearer $${serveTokenEnv}" },`,
    `"allowedEnvVars": ["${serveTokenEnv}"], with ${serveTokenEnv} set to the token.`,
    "Hooks are reloaded when hookyard.json, hookyard.lock or .hookyard/hooks/ change; a reload that",
    "fails keeps the hooks that were running. SIGINT or SIGTERM stops it and removes the token file it wrote.",
  ].join("\n"),
  async run(context, _args, options) {
    const port = portOption(options.port, 0);
    if (options.socket !== undefined && options.host !== undefined) {
      throw new CliError(
        "CLI_ERR_USAGE",
        "--socket and --host do not go together: pick one",
        exitCodes.usage,
      );
    }
    const { runServe } = await import("../../serve/run-serve.js");
    return runServe(context, {
      port,
      host: typeof options.host === "string" ? options.host : defaultServeHost,
      ...(typeof options.socket === "string" ? { socket: options.socket } : {}),
      ...(typeof options.tokenFile === "string" ? { tokenFile: options.tokenFile } : {}),
    });
  },
} satisfies Command;
