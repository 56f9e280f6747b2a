const messages = {
  INSTALL_BENCH_ERR_PUBLISH: "A registry refused the bench package",
  INSTALL_BENCH_ERR_ADMIN_TOKEN: "The hookyard registry printed no admin token",
  INSTALL_BENCH_ERR_COMMAND: "A timed command failed",
  INSTALL_BENCH_ERR_NOT_LANDED: "An install exited 0 but the package is not where it should be",
} as const;

export type InstallBenchErrorCode = keyof typeof messages;

/** The install bench stops with one of these rather than report a time for work that was not done. */
export class InstallBenchError extends Error {
  override readonly name = "InstallBenchError";
  constructor(
    readonly code: InstallBenchErrorCode,
    message: string = messages[code],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
