import type { Command } from "../../command.js";
import { tokenCommandOptions } from "../../options/registry.js";

export default {
  name: "list",
  summary: "List your tokens on a registry (never their secrets), the one in use marked",
  options: [
    ...tokenCommandOptions,
    { flags: "--owner <name>", description: "admin tokens only: one owner's tokens (default: everyone's)" },
  ],
  help: [
    "Newest first: id, owner, scope, note, when it was made, and whether it expires or was revoked.",
    "The registry keeps only a hash of each token, so no secret can be shown; `hookyard token",
    "revoke <id>` revokes one. A publish or read token lists its owner's own; an admin's, everyone's.",
  ].join("\n"),
  async run(context, _args, options) {
    const { withRegistry } = await import("../../manage/registry-session.js");
    const { checkOwnerName } = await import("../../manage/owners-target.js");
    const { printAnswer } = await import("../../ui/print-answer.js");
    const { safeTable } = await import("../../ui/terminal-text.js");
    const { tokenState } = await import("../../ui/token-line.js");
    const owner = typeof options.owner === "string" ? checkOwnerName(options.owner) : undefined;
    const { registry, current, tokens } = await withRegistry(context, options, async (client) => {
      const [me, tokens] = await Promise.all([client.whoami(), client.tokens(owner)]);
      return { registry: client.url, current: me.id, tokens };
    });
    const rows = tokens.map((t) => [
      `${t.id}${t.id === current ? " *" : ""}`,
      t.owner,
      t.scope,
      t.description ?? "",
      t.createdAt?.slice(0, 10) ?? "",
      tokenState(t),
    ]);
    const lines =
      tokens.length === 0
        ? [`no tokens${owner ? ` of ${owner}` : ""} on ${registry}`]
        : [
            `tokens on ${registry} (* the one this command used):`,
            safeTable([["id", "owner", "scope", "note", "created", "state"], ...rows], "  ").trimEnd(),
          ];
    return printAnswer(context, options, { registry, current, tokens }, lines);
  },
} satisfies Command;
