import { AsyncLocalStorage } from "node:async_hooks";
import type { AgentEvent } from "./loop.js";

/**
 * The transcript of the run whose chain is being dispatched. A hook that runs an agent of its
 * own (the `agent` engine) writes that agent's events here, nested under its name, so they show
 * in the transcript of the run that called it; outside a run there is none.
 */
const scope = new AsyncLocalStorage<(event: AgentEvent) => void>();

export function withTranscript<T>(emit: (event: AgentEvent) => void, run: () => T): T {
  return scope.run(emit, run);
}

export function currentTranscript(): ((event: AgentEvent) => void) | undefined {
  return scope.getStore();
}
