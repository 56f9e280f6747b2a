import { ClientError } from "../errors.js";

/** A bearer token travels in an HTTP header: visible ASCII only, no spaces. */
const tokenText = /^[\x21-\x7e]+$/;

/**
 * Refuses, before any request, a token that cannot be sent: the HTTP library's own error would
 * quote it, and a token is never printed. `from` says where it came from.
 */
export function checkTokenText(token: string, from: string): void {
  if (!tokenText.test(token)) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `${from} is not a registry token: a token is printable ASCII without spaces or line breaks (it is not shown here)`,
    );
  }
}
