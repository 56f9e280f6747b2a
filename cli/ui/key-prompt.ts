import type { CliContext } from "../command.js";
import { askLine, isYes } from "./terminal-questions.js";

/**
 * Asked the first time a workspace installs from a registry: its signing key is about to be pinned,
 * and from then on only that key is accepted from there. The person can compare the id with the
 * one the registry's operator publishes before saying yes.
 */
export async function askKey(context: CliContext, origin: string, keyId: string): Promise<boolean> {
  context.stderr.write(
    `hookyard: ${origin} signs its packages with key ${keyId}; this workspace has not installed from it before.\n` +
      "  Trusting it pins the key in hookyard.json: later installs from there must be signed with it.\n",
  );
  return isYes(await askLine(context, `trust ${origin}'s key ${keyId}? [y/N] `, "signing key"));
}
