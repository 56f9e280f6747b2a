import { RunnerError } from "../core/errors.js";

/** The agent's input is refused: not JSON, not an object, a missing field, a field of the wrong type. */
export class AgentInputError extends RunnerError {
  constructor(message: string, options?: ErrorOptions) {
    super("RUN_ERR_AGENT_INPUT", message, options);
  }
}
