import type { LogoutResult } from "../../../client/access/logout.js";
import type { Command } from "../../command.js";
import { jsonOption, registryOption } from "../../options/registry.js";

export default {
  name: "logout",
  summary: "Revoke the token `hookyard login` saved for a registry, and remove it from your user config",
  options: [
    registryOption,
    {
      flags: "--no-revoke",
      description: "only remove it from the user config; it keeps working on the registry",
    },
    jsonOption,
  ],
  help: [
    "Like npm logout: the saved token is revoked on the registry first (so a copy of it is dead",
    "too), then removed from the user config ($HOOKYARD_CONFIG, else ~/.config/hookyard/config.json).",
    "When the registry cannot be reached the token is still removed, and you are told it may still",
    "work there. --token and $HOOKYARD_TOKEN are not touched: unset the variable yourself.",
  ].join("\n"),
  async run(context, _args, options) {
    const { logout } = await import("../../../client/access/logout.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const result = await logout(context, options, { revoke: options.revoke !== false });
    const { registryToken, ...rest } = result;
    const json = {
      ...rest,
      registryToken:
        registryToken.state === "failed"
          ? { state: "failed", code: registryToken.error.code, message: registryToken.error.message }
          : registryToken,
    };
    if (registryToken.state === "failed") {
      context.stderr.write(
        `hookyard: warning: the token could not be revoked on ${result.registry} (${registryToken.error.code}: ${registryToken.error.message}); it still works there: revoke it with \`hookyard token revoke <id>\` (\`hookyard token list\` shows ids) using another token\n`,
      );
    }
    const lines = logoutLines(result);
    if (context.env.HOOKYARD_TOKEN) {
      lines.push("HOOKYARD_TOKEN is still set in your environment: commands send it until you unset it");
    }
    return printAnswer(context, options, json, lines);
  },
} satisfies Command;

function logoutLines({ registry, file, removed, registryToken }: LogoutResult): string[] {
  if (!removed) return [`not logged in to ${registry}: ${file} holds no token for it; nothing was removed`];
  const lines = [`removed the token for ${new URL(registry).origin} from ${file}`];
  switch (registryToken.state) {
    case "revoked":
      lines.push(`revoked it on ${registry} (token ${registryToken.id}): it no longer works anywhere`);
      break;
    case "dead":
      lines.push(`${registry} no longer accepted it (${registryToken.code}): there was nothing to revoke`);
      break;
    case "kept":
      lines.push(
        `it still works on ${registry} (--no-revoke): revoke it with \`hookyard token revoke <id>\` when it should not`,
      );
      break;
    case "failed":
      lines.push(`it may still work on ${registry}: it could not be revoked (see the warning)`);
      break;
  }
  return lines;
}
