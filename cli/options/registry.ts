import type { CommandOption } from "../command.js";

/*
 * Apart from registry-access.ts (which loads the client, zod and the runner): the commands'
 * metadata uses these at start-up, so nothing here may import code.
 */

/** The option every registry command takes. */
export const registryOption: CommandOption = {
  flags: "--registry <url>",
  description:
    "registry URL (default: $HOOKYARD_REGISTRY, hookyard.json's registry, the user config, http://127.0.0.1:4873)",
};

/** The option every command that writes to a registry takes; the token is never printed. */
export const tokenOption: CommandOption = {
  flags: "--token <token>",
  description: "registry token (default: $HOOKYARD_TOKEN, then the user config written by `hookyard login`)",
};

/** `--json`: what the command did, as the registry answered it, for scripts. */
export const jsonOption: CommandOption = { flags: "--json", description: "print JSON instead of text" };

/** What every command that acts on a registry with a token takes (whoami, yank, owner add, …). */
export const tokenCommandOptions: CommandOption[] = [registryOption, tokenOption, jsonOption];
