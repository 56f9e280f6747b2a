const messages = {
  AGENT_BENCH_ERR_WRONG_ANSWER: "A hook answered an event with the wrong decision",
  AGENT_BENCH_ERR_COMMAND: "A hook process could not be run",
  AGENT_BENCH_ERR_SERVE: "hookyard serve did not start",
  AGENT_BENCH_ERR_SETUP: "The sandboxed guard could not be installed",
} as const;

export type AgentBenchErrorCode = keyof typeof messages;

/** The agent-compat bench stops with one of these rather than report a time for a wrong answer. */
export class AgentBenchError extends Error {
  override readonly name = "AgentBenchError";
  constructor(
    readonly code: AgentBenchErrorCode,
    message: string = messages[code],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
