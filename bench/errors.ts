const messages = {
  BENCH_ERR_INSTALL: "Verdaccio could not be installed",
  BENCH_ERR_SERVER: "A registry server did not start or stopped early",
  BENCH_ERR_CHECK: "A registry did not serve what was seeded",
  BENCH_ERR_SEED: "A registry could not be seeded",
  BENCH_ERR_POSTGRES: "The bench's PostgreSQL cluster did not start (is Debian's postgresql installed?)",
  AGENT_BENCH_ERR_WRONG_ANSWER: "A hook answered an event with the wrong decision",
  AGENT_BENCH_ERR_COMMAND: "A hook process could not be run",
  AGENT_BENCH_ERR_SERVE: "hookyard serve did not start",
  AGENT_BENCH_ERR_SETUP: "The sandboxed guard could not be installed",
  INSTALL_BENCH_ERR_PUBLISH: "A registry refused the bench package",
  INSTALL_BENCH_ERR_ADMIN_TOKEN: "The hookyard registry printed no admin token",
  INSTALL_BENCH_ERR_COMMAND: "A timed command failed",
  INSTALL_BENCH_ERR_NOT_LANDED: "An install exited 0 but the package is not where it should be",
} as const;

export type BenchErrorCode = keyof typeof messages;

/**
 * A bench that cannot measure stops with one of these rather than report a time for work that was
 * not done (a wrong answer, an install that did not land); the message says what to look at.
 */
export class BenchError extends Error {
  override readonly name = "BenchError";
  constructor(
    readonly code: BenchErrorCode,
    message: string = messages[code],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
