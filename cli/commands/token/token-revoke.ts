import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { tokenCommandOptions } from "../../options/registry.js";

/** What the registry's ids look like and a mistyped one may: never a secret, never a path. */
const tokenId = /^[A-Za-z0-9_-]{1,64}$/;

export default {
  name: "revoke",
  summary: "Revoke one of your tokens by its id: it fails on the registry from the next request on",
  args: [{ name: "<id>", description: "the token's id, as `hookyard token list` shows it (not its secret)" }],
  options: tokenCommandOptions,
  help: [
    "Revoking is for good: the token gets 401 (REG_ERR_TOKEN_REVOKED) wherever it is used. You may",
    "revoke the token you are using; `hookyard logout` does that and forgets it. An admin token may",
    "revoke anyone's.",
  ].join("\n"),
  async run(context, [id = ""], options) {
    // A secret passed by mistake would travel in the URL path, into the registry's logs.
    if (id.startsWith("hyk_")) {
      throw new CliError(
        "CLI_ERR_USAGE",
        "that is a token's secret, not its id (it is not shown here, and was not sent): `hookyard token list` shows ids",
        exitCodes.usage,
      );
    }
    if (!tokenId.test(id)) {
      throw new CliError(
        "CLI_ERR_USAGE",
        `"${id}" is not a token id (letters, digits, _ and -, at most 64): \`hookyard token list\` shows ids`,
        exitCodes.usage,
      );
    }
    const { withRegistry } = await import("../../manage/registry-session.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { tokenLine } = await import("../../ui/token-line.js");
    const { registry, current, token } = await withRegistry(
      context,
      options,
      async (client) => {
        const current = (await client.whoami()).id;
        return { registry: client.url, current, token: await client.revokeToken(id) };
      },
      { REG_ERR_TOKEN_NOT_FOUND: "`hookyard token list` shows the ids of yours; nothing was revoked" },
    );
    const lines = [
      `revoked token ${id} of ${token.owner} on ${registry}: it fails there from now on`,
      tokenLine(token),
    ];
    if (token.id === current) {
      lines.push(
        "it was the token this command used: log in with another (hookyard login), and `hookyard logout` removes this one from your user config",
      );
    }
    return printAnswer(context, options, { registry, ...token }, lines);
  },
} satisfies Command;
