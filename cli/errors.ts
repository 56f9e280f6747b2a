import { type AdapterErrorCode, adapterErrorMessages } from "../adapters/errors.js";
import { type ClientError, type ClientErrorCode, clientErrorMessages } from "../client/errors.js";
import type { RegistryError } from "../registry/errors.js";

/** The CLI's own codes; the package client's (client/errors.ts) and the adapters' (adapters/errors.ts) are shown and documented beside them. */
const ownMessages = {
  CLI_ERR_USAGE: "Wrong usage",
  CLI_ERR_MODEL_SPEC: "--model is not understood",
  CLI_ERR_NOT_A_DIRECTORY: "--cwd is not a directory",
  CLI_ERR_EXAMPLE_MISSING: "The bundled example is missing",
  CLI_ERR_FILESYSTEM: "A file or folder could not be read or written",
  CLI_ERR_REGISTRY: "The registry could not start or could not be opened",
  CLI_ERR_PORT_IN_USE: "The registry's port is already in use",
  CLI_ERR_LISTEN: "The registry cannot listen on that address",
  CLI_ERR_CAPABILITIES_CHANGED: "A new version requests capabilities that were not granted",
  CLI_ERR_DEMO: "The demo could not run",
  CLI_ERR_SERVE_LISTEN: "hookyard serve cannot listen on that address, port or socket",
  CLI_ERR_SERVE_TOKEN: "hookyard serve cannot use its token file",
} as const;

const messages: Readonly<Record<CliErrorCode, string>> = {
  ...clientErrorMessages,
  ...adapterErrorMessages,
  ...ownMessages,
};

export type CliErrorCode = keyof typeof ownMessages | ClientErrorCode | AdapterErrorCode;

export const exitCodes = { ok: 0, error: 1, usage: 2, security: 3 } as const;

export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    readonly code: CliErrorCode,
    message: string = messages[code],
    readonly exitCode: number = exitCodes.error,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export const cliErrorCodes = Object.keys(messages) as CliErrorCode[];

/** A registry that cannot start or be opened: its own message, its REG_ERR_* code at the end. */
export function registryFailure(error: RegistryError): CliError {
  return new CliError("CLI_ERR_REGISTRY", `${error.message} (${error.code})`, exitCodes.error, {
    cause: error,
  });
}

/** The exit code of a client failure: the CLI picks it, from the code and whether it was a security refusal. */
export function clientExitCode(error: ClientError): number {
  if (error.code === "CLI_ERR_INTERRUPTED") return 130;
  if (error.security) return exitCodes.security;
  if (error.code === "CLI_ERR_USAGE" || error.code === "CLI_ERR_GRANT") return exitCodes.usage;
  return exitCodes.error;
}
