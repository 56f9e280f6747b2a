/**
 * The package client's failures. The codes keep the `CLI_ERR_` names they were documented under
 * when this code lived in the CLI: scripts match on them, and a code is a promise.
 */
const messages = {
  CLI_ERR_USAGE: "An argument is not one the client accepts",
  CLI_ERR_REGISTRY_UNREACHABLE: "The registry could not be reached",
  CLI_ERR_REGISTRY_REFUSED: "The registry refused the request",
  CLI_ERR_REGISTRY_BAD_ANSWER: "The registry's answer is not what a hookyard registry sends",
  CLI_ERR_NOT_FOUND: "No such package or version",
  CLI_ERR_NO_MATCHING_VERSION: "No version satisfies the range",
  CLI_ERR_INTEGRITY: "Downloaded or stored bytes do not match their integrity",
  CLI_ERR_SIGNATURE: "The registry's signature does not verify",
  CLI_ERR_KEY_CHANGED: "The registry's signing key is not the one pinned in hookyard.json",
  CLI_ERR_KEY_NOT_TRUSTED: "The registry's signing key was not trusted at the question",
  CLI_ERR_GRANT: "A grant is invalid or beyond what the package requests",
  CLI_ERR_NOT_INSTALLED: "The package is not installed",
  CLI_ERR_WORKSPACE_BUSY: "Another hookyard is changing this workspace's community hooks",
  CLI_ERR_TOKEN_MISSING: "No registry token",
  CLI_ERR_TOKEN_FILE: "The token file is unsafe or unreadable",
  CLI_ERR_INTERRUPTED: "Interrupted",
  CLI_ERR_MANIFEST_INVALID: "package.json is missing or is not a valid hook package manifest",
  CLI_ERR_UNSAFE_MATCHER: "A hookyard.matcher pattern is too long, not a regex, or can take exponential time",
  CLI_ERR_BUNDLE: "The hook cannot be packed as one module with no imports",
  CLI_ERR_TARBALL_INVALID: "The tarball is not a package the registry would accept",
  CLI_ERR_TSCONFIG: "The package's tsconfig.json cannot be used to type-check it",
} as const;

export type ClientErrorCode = keyof typeof messages;

export const clientErrorCodes = Object.keys(messages) as ClientErrorCode[];

export const clientErrorMessages: Readonly<Record<ClientErrorCode, string>> = messages;

/** Codes that are always a refusal to protect the user: bytes, signatures or keys that do not check out. */
const securityCodes = new Set<ClientErrorCode>([
  "CLI_ERR_INTEGRITY",
  "CLI_ERR_SIGNATURE",
  "CLI_ERR_KEY_CHANGED",
]);

/**
 * What the client throws: a stable `code` and a message that says what to do; never an exit code
 * (the CLI picks those). `security` marks a refusal made to protect the user (tampered bytes, an
 * unpinned key, a token file others may read): retrying will not help, and nothing was changed.
 */
export class ClientError extends Error {
  override readonly name = "ClientError";
  readonly security: boolean;
  constructor(
    readonly code: ClientErrorCode,
    message: string = messages[code],
    options?: ErrorOptions & { security?: boolean },
  ) {
    super(message, options);
    this.security = options?.security ?? securityCodes.has(code);
  }
}
