/** Caps on what one broker call may move or take. Hooks run under a wall timeout of a few seconds. */
export interface BrokerLimits {
  /** Largest file fs.readFile returns, and largest readdir listing (names, in bytes). */
  readBytes: number;
  /** Largest content fs.writeFile accepts. */
  writeBytes: number;
  /** Largest response body net.fetch reads, and largest request body it sends. */
  fetchBodyBytes: number;
  /** For the whole fetch, DNS and redirects included. */
  fetchTimeoutMs: number;
  maxRedirects: number;
  /** Upper bound; a call may ask for less with `timeoutMs`. */
  execTimeoutMs: number;
  /** Per stream (stdout, stderr). */
  execOutputBytes: number;
  /** Largest `input` written to the command's stdin. */
  execInputBytes: number;
}

const mib = 1024 * 1024;

export const defaultBrokerLimits: BrokerLimits = Object.freeze({
  readBytes: 4 * mib,
  writeBytes: 4 * mib,
  fetchBodyBytes: 4 * mib,
  fetchTimeoutMs: 5_000,
  maxRedirects: 5,
  execTimeoutMs: 5_000,
  execOutputBytes: mib,
  execInputBytes: mib,
});
