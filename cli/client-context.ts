import type { ClientContext } from "../client/context.js";
import type { CliContext } from "./command.js";
import { askGrants } from "./ui/grant-prompt.js";
import { askKey } from "./ui/key-prompt.js";
import { downloadProgress } from "./ui/progress.js";
import { terminalLine } from "./ui/terminal-text.js";

/**
 * The package client as a command runs it: notices on stderr (as text: a package's owner may have
 * written them), a progress bar on a terminal, and questions (grants, a registry's key) only when
 * stdin is a terminal.
 */
export function clientContext(context: CliContext): ClientContext {
  return {
    cwd: context.cwd,
    env: context.env,
    ...(context.installTransaction ? { installTransaction: context.installTransaction } : {}),
    notice: ({ level, text }) =>
      context.stderr.write(`hookyard: ${level === "warning" ? "warning: " : ""}${terminalLine(text)}\n`),
    download: (label) => downloadProgress(context, label),
    ...(context.stdin.isTTY
      ? {
          approveGrants: (id, undecided) => askGrants(context, id, undecided),
          approveKey: (origin, keyId) => askKey(context, origin, keyId),
        }
      : {}),
  };
}
