import { checkTokenText } from "../../../client/access/token-text.js";
import { ClientError } from "../../../client/errors.js";
import type { Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { registryOption } from "../../options/registry.js";

export default {
  name: "login",
  summary: "Save a registry token in your user config, once the registry has accepted it",
  options: [registryOption],
  help: [
    "On a terminal the token is asked for and not echoed; otherwise it is the first line of stdin",
    "(hookyard login < token.txt). It is saved under the registry's origin in the user config file",
    "($HOOKYARD_CONFIG, else ~/.config/hookyard/config.json), readable by you only, and never printed.",
  ].join("\n"),
  async run(context, _args, options) {
    const { registryAccess } = await import("../../../client/access/registry-access.js");
    const { readToken } = await import("../../ui/read-token.js");
    const { RegistryClient } = await import("../../../client/registry-client.js");
    const { saveToken } = await import("../../../client/access/save-token.js");
    // Also refuses, before a token is asked for, a user config that others may read.
    const registry = (await registryAccess(context, options)).url;
    const token = await readToken(context, `token for ${registry}: `);
    if (!token) {
      throw new CliError(
        "CLI_ERR_TOKEN_MISSING",
        `no token was given for ${registry}: type it at the prompt, or pipe it in (hookyard login < token.txt); nothing was saved`,
      );
    }
    checkTokenText(token, "what was given");
    const client = new RegistryClient(registry, { token });
    try {
      await client.tokens();
    } catch (error) {
      if (error instanceof ClientError && error.code === "CLI_ERR_REGISTRY_REFUSED") {
        throw new ClientError(
          error.code,
          `${registry} does not accept this token: ${error.message}; nothing was saved`,
          {
            cause: error.cause,
          },
        );
      }
      throw error;
    }
    const file = await saveToken(context.env, client.origin, token);
    context.stdout.write(`saved the token for ${client.origin} in ${file} (readable by you only)\n`);
    return exitCodes.ok;
  },
} satisfies Command;
