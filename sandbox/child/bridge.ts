import type { Broker } from "../broker/index.js";
import type { CallLog } from "./call-log.js";
import type { RuntimeServices } from "./types.js";

/** In-flight API calls per hook: a hook that fires off more without awaiting them gets an error. */
export const maxPendingHostCalls = 64;

/** One call of a hook's handler: where its log lines go, and its API calls in flight. */
export interface ActiveCall {
  /** Numbers the hook's calls; the bootstrap tags each API call with the number of its call. */
  readonly token: number;
  readonly log: CallLog;
  pending: number;
}

export interface BridgeTarget {
  readonly id: string;
  /** The hook's broker, made on its first API call (loading the broker costs more than a cold call). */
  broker(): Promise<Broker>;
  readonly services: RuntimeServices;
  /** The call in progress, or undefined between calls. */
  current(): ActiveCall | undefined;
  /** The hook's call with this token, in progress or one of the last few ended. */
  callFor(token: unknown): ActiveCall | undefined;
  /** A promise that never settles, for a result whose call has ended. */
  orphan(): Promise<string>;
}

/** The host function behind the one Reference a hook's bootstrap holds. */
export type BridgeFunction = (
  method: unknown,
  args: unknown,
  token: unknown,
) => string | Promise<string> | undefined;

const maxMessage = 2000;
const maxStateKey = 256;

/**
 * Guest API calls land here as (method, JSON text, call token) and leave as JSON text: plain data
 * both ways, never a host object. It never throws, since isolated-vm would hand the guest a copy of
 * the host error, stack and all.
 *
 * isolated-vm runs this function when the host's event loop gets to it, which for a call the hook
 * did not await can be after its handler returned, or after its next call began: such a call is
 * still made (as it would be for a trusted hook), but a result that arrives after its call ended is
 * never delivered, so no hook code runs in the isolate between calls.
 */
export function createBridge(target: BridgeTarget): BridgeFunction {
  return (method, args, token) => {
    if (method === "log") {
      const call = target.current();
      if (call && typeof args === "string") call.log.add(args);
      return undefined;
    }
    const call = target.callFor(token);
    if (!call) return target.orphan();
    if (typeof method !== "string" || typeof args !== "string") {
      return failure("Error", "SANDBOX_API_BAD_CALL", "malformed API call");
    }
    if (call.pending >= maxPendingHostCalls) {
      return failure(
        "Error",
        "SANDBOX_API_TOO_MANY_CALLS",
        `more than ${maxPendingHostCalls} API calls in flight; await them`,
      );
    }
    call.pending++;
    return perform(target, method, args).then((reply) => {
      call.pending--;
      return target.current() === call ? reply : target.orphan();
    });
  };
}

async function perform(target: BridgeTarget, method: string, argsJson: string): Promise<string> {
  let args: unknown;
  try {
    args = JSON.parse(argsJson);
  } catch {
    return failure("Error", "SANDBOX_API_BAD_CALL", "malformed API call");
  }
  if (method === "state.get" || method === "state.set") return state(target, method, args);
  try {
    const broker = await target.broker();
    const value = await broker.call(method, args);
    // env.get answers null for an unset name; the hook API says undefined, as for trusted hooks.
    return value === null || value === undefined ? "[2]" : JSON.stringify([0, value]);
  } catch (error) {
    return brokerFailure(error, method);
  }
}

async function state(
  target: BridgeTarget,
  method: "state.get" | "state.set",
  args: unknown,
): Promise<string> {
  const [key, value] = Array.isArray(args) ? args : [];
  if (typeof key !== "string" || key === "" || key.length > maxStateKey) {
    return failure(
      "TypeError",
      "SANDBOX_API_BAD_CALL",
      `a state key is a string of 1-${maxStateKey} characters`,
    );
  }
  try {
    if (method === "state.set") {
      await target.services.stateSet(target.id, key, value ?? null);
      return "[2]";
    }
    const stored = await target.services.stateGet(target.id, key);
    return stored === undefined ? "[2]" : JSON.stringify([0, stored]);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // The runner's message may name host paths; the hook learns only what failed.
    return failure(
      "Error",
      "SANDBOX_API_STATE",
      `state "${key}" could not be ${method === "state.set" ? "saved" : "read"}${typeof code === "string" ? ` (${code})` : ""}`,
    );
  }
}

/** The broker's errors are made for hook eyes (no host stack, no host path); anything else is said generically. */
function brokerFailure(error: unknown, method: string): string {
  const { name, code, message, needs } = (error ?? {}) as Record<string, unknown>;
  if ((name === "CapabilityDenied" || name === "BrokerError") && typeof code === "string") {
    return failure(
      name,
      code,
      typeof message === "string" ? message : code,
      typeof needs === "string" ? needs : null,
    );
  }
  return failure("Error", "SANDBOX_API_FAILED", `api.${method} failed in the host`);
}

function failure(name: string, code: string, message: string, needs: string | null = null): string {
  return JSON.stringify([1, name, code, message.slice(0, maxMessage), needs]);
}
