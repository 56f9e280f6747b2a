import type { Client } from "undici";
import type { Contender } from "../install/contenders.js";
import { checkCommandAnswer, checkHttpAnswer } from "./answer.js";
import { type EventSource, type Expected, eventName } from "./event.js";
import { type HookProcess, runHookProcess, type TimedAnswer } from "./hook-process.js";

/**
 * What is timed: one contender per way of running the guard. bench/install's runRounds runs each
 * contender's `once` per round; here that is a batch of calls (a process costs a hundred times what
 * a request to serve does), each one timed, its answer checked, and kept in `samples`.
 */

export interface EventContender extends Contender {
  /** The row's name in the table. */
  name: string;
  perRound: number;
  /** Every call's ms, in order, warm-up rounds included. */
  readonly samples: number[];
}

export interface ContenderSpec {
  name: string;
  /** The row's name in the progress lines. */
  short: string;
  perRound: number;
  events: EventSource;
}

type Call = (expected: Expected, call: number, signal: AbortSignal) => Promise<number>;

/** Calls alternate deny and allow, across rounds too, so each row answers both alike. */
function eventContender({ name, short, perRound }: ContenderSpec, call: Call): EventContender {
  const samples: number[] = [];
  let calls = 0;
  return {
    name,
    perRound,
    samples,
    // runRounds logs this with the batch's total time.
    label: `${short} x${perRound}`,
    async once(signal) {
      let total = 0;
      for (let i = 0; i < perRound; i++) {
        const ms = await call(calls % 2 === 0 ? "deny" : "allow", calls, signal);
        calls++;
        samples.push(ms);
        total += ms;
      }
      return total;
    },
  };
}

type AnswerCheck = (label: string, expected: Expected, answer: TimedAnswer) => void;

/**
 * A process per event, the agent's command hook: spawn, the input on stdin, time to exit. Its
 * answer is read as Claude Code reads it unless `check` says how that agent does.
 */
export function processContender(
  spec: ContenderSpec & { hook: HookProcess; check?: AnswerCheck },
): EventContender {
  const check = spec.check ?? checkCommandAnswer;
  return eventContender(spec, async (expected, call, signal) => {
    const answer = await runHookProcess(spec.hook, spec.events.json(expected, call), signal);
    check(spec.name, expected, answer);
    return answer.ms;
  });
}

export interface ServeConnection {
  /** One keep-alive connection to the daemon. */
  client: Client;
  token: string;
}

/** The agent's http hook: a POST to the daemon, timed to the last byte of the answer. */
export function serveContender(spec: ContenderSpec & { connection: ServeConnection }): EventContender {
  const headers = { authorization: `Bearer ${spec.connection.token}`, "content-type": "application/json" };
  const path = `/claude/${eventName}`;
  return eventContender(spec, async (expected, call, signal) => {
    const body = spec.events.json(expected, call);
    const started = performance.now();
    const answer = await spec.connection.client.request({ method: "POST", path, headers, body, signal });
    const text = await answer.body.text();
    const ms = performance.now() - started;
    checkHttpAnswer(spec.name, expected, answer.statusCode, text);
    return ms;
  });
}

/** The calls of the timed rounds: each round adds `perRound` samples, warm-up rounds first. */
export function timedSamples(contender: EventContender, warmupRounds: number): number[] {
  return contender.samples.slice(warmupRounds * contender.perRound);
}

/** A process whose answer is not a guard's (`node -e 0`, `hookyard --help`): timed, its exit checked. */
export function floorContender(spec: Omit<ContenderSpec, "events"> & { hook: HookProcess }): EventContender {
  return eventContender({ ...spec, events: { json: () => "" } }, async (_expected, _call, signal) => {
    const answer = await runHookProcess(spec.hook, "", signal);
    if (answer.exitCode !== 0) {
      throw new Error(
        `${spec.name} exited ${answer.exitCode ?? answer.signal}: ${answer.stderr.slice(-2_000)}`,
      );
    }
    return answer.ms;
  });
}

/** A process per event, after `before` (not timed): the exec daemon stopped, so the call starts one. */
export function coldProcessContender(
  spec: ContenderSpec & { hook: HookProcess; before: () => Promise<void> },
): EventContender {
  return eventContender(spec, async (expected, call, signal) => {
    await spec.before();
    const answer = await runHookProcess(spec.hook, spec.events.json(expected, call), signal);
    checkCommandAnswer(spec.name, expected, answer);
    return answer.ms;
  });
}
