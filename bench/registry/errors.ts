const messages = {
  BENCH_ERR_INSTALL: "Verdaccio could not be installed",
  BENCH_ERR_SERVER: "A registry server did not start or stopped early",
  BENCH_ERR_CHECK: "A registry did not serve what was seeded",
  BENCH_ERR_SEED: "A registry could not be seeded",
  BENCH_ERR_POSTGRES: "The bench's PostgreSQL cluster did not start (is Debian's postgresql installed?)",
} as const;

export type BenchErrorCode = keyof typeof messages;

/** A bench that cannot measure stops with one of these; the message says what to look at. */
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
