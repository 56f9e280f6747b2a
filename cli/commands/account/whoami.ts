import type { Command } from "../../command.js";
import { tokenCommandOptions } from "../../options/registry.js";

export default {
  name: "whoami",
  summary: "Show who the registry takes your token for: its owner, scope and id",
  options: tokenCommandOptions,
  help: [
    "Asks the registry (GET /v1/whoami) about the token a publish would send: --token, else",
    "$HOOKYARD_TOKEN, else the one `hookyard login` saved for that registry. Exit code 1 when",
    "there is no token, or the registry does not accept it (unknown, revoked or expired).",
  ].join("\n"),
  async run(context, _args, options) {
    const { withRegistry } = await import("../../manage/registry-session.js");
    const { ClientError } = await import("../../../client/errors.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { tokenLine } = await import("../../ui/token-line.js");
    try {
      const { url, token } = await withRegistry(context, options, async (client) => ({
        url: client.url,
        token: await client.whoami(),
      }));
      return printAnswer(context, options, { registry: url, ...token }, [
        `logged in to ${url} as ${token.owner}`,
        tokenLine(token),
      ]);
    } catch (error) {
      if (error instanceof ClientError && error.code === "CLI_ERR_TOKEN_MISSING") {
        throw new ClientError("CLI_ERR_TOKEN_MISSING", `not logged in: ${error.message}`);
      }
      throw error;
    }
  },
} satisfies Command;
