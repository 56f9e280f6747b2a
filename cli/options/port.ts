import { CliError, exitCodes } from "../errors.js";

/** A `--port` value as a port number; 0 (pick a free one) only where a server listens. */
export function portOption(value: unknown, lowest: 0 | 1): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < lowest || port > 65_535) {
    throw new CliError(
      "CLI_ERR_USAGE",
      `--port ${String(value)} is not a port number (${lowest}-65535)`,
      exitCodes.usage,
    );
  }
  return port;
}
