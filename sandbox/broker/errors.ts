/**
 * The two ways a broker call fails. Both reach hook code, so their messages name only what the
 * hook itself asked for (a workspace path, a URL, a command): never a host stack, and never a
 * host path outside the workspace that the hook did not name.
 */

/** The call needs a grant the user did not give; `needs` is the least grant that would allow it. */
export class CapabilityDenied extends Error {
  override readonly name = "CapabilityDenied";
  readonly code = "CAPABILITY_DENIED";
  constructor(
    readonly needs: string,
    why?: string,
  ) {
    super(why ? `needs ${needs} (${why})` : `needs ${needs}`);
    this.stack = `${this.name}: ${this.message}`;
  }
}

const messages = {
  BROKER_ERR_UNKNOWN_METHOD: "No such host API method",
  BROKER_ERR_BAD_ARGS: "The arguments do not match the method",
  BROKER_ERR_REFUSED: "Refused whatever the grants say",
  BROKER_ERR_NOT_FOUND: "No such file, directory or command",
  BROKER_ERR_WRONG_TYPE: "The path is not the kind of file the method works on",
  BROKER_ERR_TOO_LARGE: "More data than the broker's limit",
  BROKER_ERR_TIMEOUT: "Took longer than the broker's limit",
  BROKER_ERR_TOO_MANY_REDIRECTS: "More redirects than the broker follows",
  BROKER_ERR_NET: "The request failed (DNS, connection, TLS or protocol)",
  BROKER_ERR_IO: "A file-system operation failed",
  BROKER_ERR_EXEC: "The command could not be started",
  BROKER_ERR_OPTIONS: "The broker's options are invalid, or its grants contradict each other",
} as const;

export type BrokerErrorCode = keyof typeof messages;
export const brokerErrorCodes = Object.keys(messages) as BrokerErrorCode[];

/** A plain-message failure of a call (or of createBroker) that is not a missing grant. */
export class BrokerError extends Error {
  override readonly name = "BrokerError";
  constructor(
    readonly code: BrokerErrorCode,
    message: string = messages[code],
  ) {
    super(message);
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Node's fs messages carry the full host path; this says what failed in words the hook may see. */
export function fsFailure(error: unknown, action: string, shown: string): BrokerError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return new BrokerError("BROKER_ERR_NOT_FOUND", `cannot ${action} ${shown}: no such file or directory`);
    case "ENOTDIR":
      return new BrokerError(
        "BROKER_ERR_NOT_FOUND",
        `cannot ${action} ${shown}: a part of the path is not a directory`,
      );
    case "EISDIR":
      return new BrokerError("BROKER_ERR_WRONG_TYPE", `cannot ${action} ${shown}: it is a directory`);
    case "EACCES":
    case "EPERM":
      return new BrokerError("BROKER_ERR_IO", `cannot ${action} ${shown}: permission denied`);
    case "ENOSPC":
    case "EDQUOT":
      return new BrokerError("BROKER_ERR_IO", `cannot ${action} ${shown}: no space left on the device`);
    case "EROFS":
      return new BrokerError("BROKER_ERR_IO", `cannot ${action} ${shown}: read-only file system`);
    default:
      return new BrokerError("BROKER_ERR_IO", `cannot ${action} ${shown}${code ? `: ${code}` : ""}`);
  }
}
