/**
 * The coding-agent adapters' failures. As with the client's, the codes keep the `CLI_ERR_` names
 * they were documented under.
 */
const messages = {
  CLI_ERR_AGENT_SETTINGS: "A coding agent's settings file is not JSON or not in the shape that agent reads",
  CLI_ERR_PLUGIN_INVALID: "The plugin's hooks cannot be imported",
  CLI_ERR_AGENT_FILES: "A file install-into would write is already there and is not hookyard's",
  CLI_ERR_AGENT_PLUGIN_FILE: "A file install-into did not write is where it would put its plugin",
} as const;

export type AdapterErrorCode = keyof typeof messages;

export const adapterErrorMessages: Readonly<Record<AdapterErrorCode, string>> = messages;

/** A stable `code` and a message that says what to do; the CLI picks the exit code (1). */
export class AdapterError extends Error {
  override readonly name = "AdapterError";
  constructor(
    readonly code: AdapterErrorCode,
    message: string = messages[code],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
