import { errorText, RunnerError, type RunnerErrorCode } from "../../core/errors.js";
import { type AnyCtx, blockable, type Effect, type Point } from "../../core/events.js";
import type { ChainVerdict, HookApi } from "../../core/hook.js";
import { type BatchAnswer, type CompiledHook, type HookBatch, originOrder } from "../compiled-hook.js";
import type { Logger } from "../logger.js";
import { applyDecision, parseDecision } from "./effects.js";
import { CtxJournal } from "./journal.js";
import { always, compileMatcher, type LateMatch, lateMatchText, type MatchTest } from "./matcher.js";
import type { ChainOutcome, HookRun } from "./outcome.js";
import { Stopwatch } from "./stopwatch.js";
import { Watchdog } from "./watchdog.js";

export interface DispatcherOptions {
  logger: Logger;
  apiFor: (hook: CompiledHook) => HookApi;
  /** Background calls in flight at once; past it new ones are dropped with a warning. */
  backgroundLimit?: number;
  drainTimeoutMs?: number;
}

/** A hook in the chain of one point. */
interface Entry {
  hook: CompiledHook;
  /** The hook's matcher at this point; undefined when it has none, so the hot loop skips the call. */
  matches: MatchTest | undefined;
  api: HookApi;
}

/** A hook's time: a chain's stopwatch, or the time a batch measured for it. */
type Lap = Pick<Stopwatch, "lap">;

/** One call of a hook in a chain: the outcome its answer goes to, the journal of its ctx writes, its time. */
interface Call {
  entry: Entry;
  outcome: ChainOutcome;
  /** Undefined when the hook never saw the ctx (its matcher or its batch failed). */
  journal: CtxJournal<AnyCtx> | undefined;
  lap: Lap;
}

/** What a matcher said: run the hook, skip it, or it failed (`failed` is what it threw). */
type Match = "run" | "skip" | { failed: unknown };

/** Extra wait before the dispatcher gives up on an engine that enforces its own timeout. */
const selfTimedGraceMs = 1_000;
/** Thenables that answer with thenables: followed this deep, then the answer is refused. */
const maxNestedThenables = 100;

export class Dispatcher {
  private readonly chains = new Map<Point, Entry[]>();
  private readonly backgroundChains = new Map<Point, Entry[]>();
  private readonly pending = new Set<Promise<void>>();
  private readonly watchdog = new Watchdog();
  private readonly backgroundLimit: number;
  private readonly drainTimeoutMs: number;

  /** `hooks` in registration order; chains are sorted here once, by priority then that order. */
  constructor(
    hooks: readonly CompiledHook[],
    private readonly options: DispatcherOptions,
  ) {
    this.backgroundLimit = options.backgroundLimit ?? 256;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
    const sorted = hooks.map((hook, index) => ({ hook, index }));
    sorted.sort(
      (a, b) =>
        a.hook.priority - b.hook.priority ||
        originOrder[a.hook.origin] - originOrder[b.hook.origin] ||
        a.index - b.index,
    );
    for (const { hook } of sorted) {
      const matches = compileMatcher(hook.matcher, hook.name, hook.points);
      const api = options.apiFor(hook);
      const chains = hook.mode === "background" ? this.backgroundChains : this.chains;
      for (const point of hook.points) {
        const chain = chains.get(point) ?? [];
        const test = matches.get(point);
        chain.push({ hook, matches: test === always ? undefined : test, api });
        chains.set(point, chain);
      }
    }
  }

  /** The synchronous chain at a point, then the background hooks, in execution order. */
  chain(point: Point): { sync: CompiledHook[]; background: CompiledHook[] } {
    return {
      sync: (this.chains.get(point) ?? []).map((e) => e.hook),
      background: (this.backgroundChains.get(point) ?? []).map((e) => e.hook),
    };
  }

  async dispatch<C extends AnyCtx>(point: Point, ctx: C): Promise<ChainOutcome<C>> {
    const outcome: ChainOutcome<C> = {
      point,
      ctx,
      verdict: "allow",
      asks: [],
      continues: [],
      injects: [],
      notices: [],
      runs: [],
      warnings: [],
    };
    const stopwatch = new Stopwatch();
    const chain = this.chains.get(point) ?? [];
    // `at` is the next hook to match: one after the last that ran, except after a batch, which
    // says where the chain goes on (a batch that stopped early leaves its rest to be matched again).
    let at = 0;
    while (at < chain.length) {
      const entry = chain[at] as Entry;
      const match = this.matchOf(entry, outcome);
      if (match !== "run") {
        // In the chain, a matcher that fails is its hook's failure: onError decides.
        if (
          match !== "skip" &&
          this.fail({ entry, outcome, journal: undefined, lap: stopwatch }, match.failed)
        )
          break;
        at++;
        continue;
      }
      if (entry.hook.batch) {
        const next = await this.runBatch(chain, at, outcome, stopwatch);
        if (next === "stop") break;
        at = next;
        continue;
      }
      // Fast path: stay synchronous until a hook returns a thenable.
      const stop = this.runOne(entry, outcome, stopwatch);
      if (stop === true || (stop !== false && (await stop))) break;
      at++;
    }
    this.launchBackground(point, outcome);
    if (point === "agent_after") await this.drain();
    return outcome;
  }

  /** Waits for background hooks still running, at most drainTimeoutMs. */
  async drain(): Promise<void> {
    const deadline = Date.now() + this.drainTimeoutMs;
    while (this.pending.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) {
        this.options.logger.warn(
          `${this.pending.size} background hook call(s) still running after drain timeout`,
        );
        return;
      }
      await raceTimer(Promise.allSettled([...this.pending]), left);
    }
  }

  /**
   * The one place a matcher is tested against the ctx, for the chain, a batch and the background
   * hooks alike; a test stopped by the regex budget counts as a match and is said. What a failure
   * (a ctx value its matcher cannot read: a throwing getter) means is the caller's: in the chain,
   * the hook failed; a batch ends before it; a background hook is not run, with a warning.
   */
  private matchOf(entry: Entry, outcome: ChainOutcome): Match {
    if (!entry.matches) return "run";
    let answer: boolean | LateMatch;
    try {
      answer = entry.matches(outcome.ctx);
    } catch (error) {
      return { failed: error };
    }
    if (answer === false) return "skip";
    if (typeof answer === "object") {
      this.warn(outcome, entry.hook.name, outcome.point, lateMatchText(answer), "RUN_ERR_MATCHER_TIMEOUT");
    }
    return "run";
  }

  /** Runs one hook of the chain; true when the chain stops there. A promise only if the hook returned one. */
  private runOne(entry: Entry, outcome: ChainOutcome, stopwatch: Stopwatch): boolean | Promise<boolean> {
    const { hook } = entry;
    const call: Call = { entry, outcome, journal: new CtxJournal<AnyCtx>(outcome.ctx), lap: stopwatch };
    let result: unknown;
    let answer: Promise<unknown> | undefined;
    try {
      result = hook.run(outcome.point, (call.journal as CtxJournal<AnyCtx>).view, entry.api);
      if (isThenable(result)) answer = this.within(result, hook, outcome.point);
    } catch (error) {
      return this.fail(call, error);
    }
    if (answer) return this.settle(call, answer);
    return this.finish(call, result);
  }

  /**
   * Runs the batch that starts at `chain[start]` (already matched) with the hooks of the same batch
   * that follow it, in one call; returns "stop" or the index the chain goes on from: right after the
   * last hook that answered, so a batch that stopped early (a rewrite) leaves the rest to be matched
   * again against the rewritten ctx.
   */
  private async runBatch(
    chain: readonly Entry[],
    start: number,
    outcome: ChainOutcome,
    stopwatch: Stopwatch,
  ): Promise<number | "stop"> {
    const first = chain[start] as Entry;
    const batch = first.hook.batch as HookBatch;
    const members: Array<{ entry: Entry; index: number }> = [{ entry: first, index: start }];
    for (let next = start + 1; next < chain.length; next++) {
      const entry = chain[next] as Entry;
      if (entry.hook.batch !== batch) break;
      const match = this.matchOf(entry, outcome);
      // A failing matcher ends the batch: the chain reaches that hook next and reports its failure.
      if (typeof match === "object") break;
      if (match === "run") members.push({ entry, index: next });
    }
    const hooks = members.map((m) => m.entry.hook);
    const ms = hooks.reduce((sum, hook) => sum + hook.timeoutMs, 0);
    let answers: BatchAnswer[];
    try {
      answers = await this.within(
        batch.run(outcome.point, outcome.ctx, hooks),
        first.hook,
        outcome.point,
        ms,
      );
      if (answers.length === 0) throw new Error("the batch answered for no hook");
    } catch (error) {
      const call: Call = { entry: first, outcome, journal: undefined, lap: stopwatch };
      return this.fail(call, error) ? "stop" : start + 1;
    }
    stopwatch.lap();
    for (const [k, answer] of answers.slice(0, members.length).entries()) {
      const { entry } = members[k] as { entry: Entry };
      const call: Call = {
        entry,
        outcome,
        journal: new CtxJournal<AnyCtx>(outcome.ctx),
        lap: { lap: () => answer.ms },
      };
      const stop = answer.ok ? this.finish(call, answer.value) : this.fail(call, answer.error);
      if (stop) return "stop";
    }
    // Hooks skipped after the last one that answered are matched again: its rewrite may make them match.
    const last = members[Math.min(answers.length, members.length) - 1] as { index: number };
    return last.index + 1;
  }

  private async settle(call: Call, answer: Promise<unknown>): Promise<boolean> {
    let result: unknown;
    try {
      result = await answer;
    } catch (error) {
      return this.fail(call, error);
    }
    return this.finish(call, result);
  }

  /** A hook's answer applied to the outcome; true when the chain stops there (a block). */
  private finish(call: Call, result: unknown): boolean {
    const { entry, outcome } = call;
    const journal = call.journal as CtxJournal<AnyCtx>;
    const { hook } = entry;
    const { point } = outcome;
    let effects: Effect[];
    try {
      const decision = parseDecision(result, hook, point);
      // Applying can throw too (a returned rewrite too deep to store): nothing reaches the outcome before the rewrite is checked.
      effects = applyDecision(hook, point, decision, journal, outcome, (message) =>
        this.warn(outcome, hook.name, point, message),
      );
    } catch (error) {
      return this.fail(call, error);
    }
    journal.revoke();
    outcome.runs.push(run(hook, call.lap.lap(), "ok", effects));
    return outcome.verdict === "block";
  }

  /** A hook that threw, timed out or answered nonsense: its writes are undone, and onError decides. */
  private fail(call: Call, thrown: unknown): boolean {
    const { entry, outcome, journal } = call;
    journal?.rollback();
    journal?.revoke();
    const ms = call.lap.lap();
    const { hook } = entry;
    const { point } = outcome;
    const error = asRunnerError(thrown, hook.name, point);
    const timedOut = error.code === "RUN_ERR_HOOK_TIMEOUT";
    const closed = hook.onError === "block" && blockable(point);
    const consequence = hook.broken
      ? 'blocking: a hook that cannot load fails closed; `"onError": "open"` under its name in hookyard.json opts out'
      : closed
        ? "blocking, as its onError is block"
        : "ignored, ctx restored";
    this.options.logger.error(
      `hook "${hook.name}" (${hook.origin}) at ${point} ${timedOut ? "timed out" : "failed"}: ${errorText(error)} (${consequence})`,
    );
    outcome.warnings.push({ hook: hook.name, point, code: error.code, message: error.message });
    outcome.runs.push(run(hook, ms, timedOut ? "timeout" : "error", closed ? ["block"] : []));
    if (!closed) return false;
    outcome.verdict = "block";
    outcome.blockedBy = {
      hook: hook.name,
      reason: hook.broken
        ? `hook "${hook.name}" ${hook.broken.reason}`
        : `hook "${hook.name}" failed and blocks on error: ${errorText(error)}`,
    };
    return true;
  }

  private warn(
    outcome: ChainOutcome,
    hook: string,
    point: Point,
    message: string,
    code: RunnerErrorCode = "RUN_ERR_EFFECT_DROPPED",
  ): void {
    this.options.logger.warn(`hook "${hook}" at ${point} ${message}`);
    outcome.warnings.push({ hook, point, code, message });
  }

  private within<T>(
    promise: PromiseLike<T>,
    hook: CompiledHook,
    point: Point,
    timeoutMs = hook.timeoutMs,
  ): Promise<T> {
    const ms = timeoutMs + (hook.selfTimed ? selfTimedGraceMs + (hook.startupMs ?? 0) : 0);
    return new Promise<T>((resolve, reject) => {
      const watch = this.watchdog.start(ms, () => {
        reject(
          new RunnerError("RUN_ERR_HOOK_TIMEOUT", `no answer within ${timeoutMs} ms`, {
            hook: hook.name,
            point,
          }),
        );
      });
      const fail = (error: unknown) => {
        this.watchdog.stop(watch);
        reject(error);
      };
      let nested = 0;
      const answer = (value: unknown): void => {
        try {
          // A thenable may answer with another thenable: it is followed under the same watch, as
          // resolve() would adopt it with no timeout at all; but not forever (one answering itself).
          if (isThenable(value)) {
            if (++nested > maxNestedThenables) {
              throw new RunnerError(
                "RUN_ERR_BAD_DECISION",
                `answered with thenables nested more than ${maxNestedThenables} deep`,
                { hook: hook.name, point },
              );
            }
            value.then(answer, fail);
            return;
          }
        } catch (error) {
          fail(error);
          return;
        }
        this.watchdog.stop(watch);
        resolve(value as T);
      };
      answer(promise);
    });
  }

  /** Observe-only calls after the chain: each gets its own copy of the final ctx and the verdict. */
  private launchBackground(point: Point, outcome: ChainOutcome): void {
    const entries = this.backgroundChains.get(point);
    if (!entries) return;
    const verdict: ChainVerdict = {
      verdict: outcome.verdict,
      ...(outcome.blockedBy ? { hook: outcome.blockedBy.hook, reason: outcome.blockedBy.reason } : {}),
    };
    for (const entry of entries) {
      const match = this.matchOf(entry, outcome);
      if (match === "skip") continue;
      if (match !== "run") {
        // A background hook cannot block: its failing matcher is said, and it does not run.
        this.warn(
          outcome,
          entry.hook.name,
          point,
          `was not run: its matcher failed (${errorText(match.failed)})`,
        );
        continue;
      }
      if (this.pending.size >= this.backgroundLimit) {
        this.warn(
          outcome,
          entry.hook.name,
          point,
          `was not run: ${this.backgroundLimit} background calls already pending`,
        );
        continue;
      }
      let copy: AnyCtx;
      try {
        copy = structuredClone(outcome.ctx);
      } catch (error) {
        this.warn(
          outcome,
          entry.hook.name,
          point,
          `was not run: the ctx cannot be copied (${errorText(error)})`,
        );
        continue;
      }
      const task = this.runBackground(entry, point, copy, verdict);
      this.pending.add(task);
      void task.finally(() => this.pending.delete(task));
    }
  }

  private async runBackground(entry: Entry, point: Point, ctx: AnyCtx, verdict: ChainVerdict): Promise<void> {
    const { hook } = entry;
    try {
      const result = hook.run(point, ctx, { ...entry.api, outcome: { ...verdict } });
      if (isThenable(result)) await this.within(result, hook, point);
    } catch (error) {
      this.options.logger.error(`background hook "${hook.name}" at ${point} failed: ${errorText(error)}`);
    }
  }
}

function run(hook: CompiledHook, ms: number, status: HookRun["status"], effects: Effect[]): HookRun {
  return {
    hook: hook.name,
    origin: hook.origin,
    trust: hook.trust,
    engine: hook.engine,
    ms,
    status,
    effects,
  };
}

/** Wrap, don't replace: the hook's own error stays the cause. Never throws, whatever was thrown. */
function asRunnerError(thrown: unknown, hook: string, point: Point): RunnerError {
  try {
    if (thrown instanceof RunnerError && typeof thrown.code === "string") return thrown;
  } catch {
    // a Proxy whose traps throw: wrapped like any other value
  }
  return new RunnerError("RUN_ERR_HOOK_THREW", errorText(thrown), { hook, point, cause: thrown });
}

/** Accepts promises from other realms too (an isolate's), as hookable does. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function raceTimer(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
