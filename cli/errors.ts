import type { RegistryError } from "../registry/errors.js";

const messages = {
  CLI_ERR_USAGE: "Wrong usage",
  CLI_ERR_MODEL_SPEC: "--model is not understood",
  CLI_ERR_NOT_A_DIRECTORY: "--cwd is not a directory",
  CLI_ERR_EXAMPLE_MISSING: "The bundled example is missing",
  CLI_ERR_FILESYSTEM: "A file or folder could not be read or written",
  CLI_ERR_REGISTRY: "The registry could not start or could not be opened",
  CLI_ERR_PORT_IN_USE: "The registry's port is already in use",
  CLI_ERR_LISTEN: "The registry cannot listen on that address",
  CLI_ERR_REGISTRY_UNREACHABLE: "The registry could not be reached",
  CLI_ERR_REGISTRY_REFUSED: "The registry refused the request",
  CLI_ERR_REGISTRY_BAD_ANSWER: "The registry's answer is not what a hookyard registry sends",
  CLI_ERR_NOT_FOUND: "No such package or version",
  CLI_ERR_NO_MATCHING_VERSION: "No version satisfies the range",
  CLI_ERR_INTEGRITY: "Downloaded or stored bytes do not match their integrity",
  CLI_ERR_SIGNATURE: "The registry's signature does not verify",
  CLI_ERR_KEY_CHANGED: "The registry's signing key is not the one pinned in hookyard.json",
  CLI_ERR_GRANT: "A grant is invalid or beyond what the package requests",
  CLI_ERR_CAPABILITIES_CHANGED: "A new version requests capabilities that were not granted",
  CLI_ERR_NOT_INSTALLED: "The package is not installed",
  CLI_ERR_WORKSPACE_INVALID: "hookyard.json or hookyard.lock cannot be used",
  CLI_ERR_TOKEN_MISSING: "No registry token",
  CLI_ERR_TOKEN_FILE: "The token file is unsafe or unreadable",
  CLI_ERR_INTERRUPTED: "Interrupted",
  CLI_ERR_DEMO: "The demo could not run",
  CLI_ERR_WORKSPACE_BUSY: "Another hookyard is changing this workspace's community hooks",
  CLI_ERR_MANIFEST_INVALID: "package.json is missing or is not a valid hook package manifest",
  CLI_ERR_UNSAFE_MATCHER: "A hookyard.matcher pattern is too long, not a regex, or can take exponential time",
  CLI_ERR_BUNDLE: "The hook cannot be packed as one module with no imports",
  CLI_ERR_TARBALL_INVALID: "The tarball is not a package the registry would accept",
  CLI_ERR_SERVE_LISTEN: "hookyard serve cannot listen on that address, port or socket",
  CLI_ERR_SERVE_TOKEN: "hookyard serve cannot use its token file",
  CLI_ERR_AGENT_SETTINGS: "A coding agent's settings file is not JSON or not in the shape that agent reads",
  CLI_ERR_PLUGIN_INVALID: "The plugin's hooks cannot be imported",
} as const;

export type CliErrorCode = keyof typeof messages;

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
