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
  apiFor: (rule: CompiledHook) => HookApi;
  /** Background calls in flight at once; past it new ones are dropped with a warning. */
  backgroundLimit?: number;
  drainTimeoutMs?: number;
}

/** A rule in the chain of one point. */
interface Entry {
  rule: CompiledHook;
  /** The rule's matcher at this point; undefined when it has none, so the hot loop skips the call. */
  matches: MatchTest | undefined;
  api: HookApi;
}

/** A hook's time: a chain's stopwatch, or the time a batch measured for it. */
type Lap = Pick<Stopwatch, "lap">;

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

  /** `rules` in registration order; chains are sorted here once, by priority then that order. */
  constructor(
    rules: readonly CompiledHook[],
    private readonly options: DispatcherOptions,
  ) {
    this.backgroundLimit = options.backgroundLimit ?? 256;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
    const sorted = rules.map((rule, index) => ({ rule, index }));
    sorted.sort(
      (a, b) =>
        a.rule.priority - b.rule.priority ||
        originOrder[a.rule.origin] - originOrder[b.rule.origin] ||
        a.index - b.index,
    );
    for (const { rule } of sorted) {
      const matches = compileMatcher(rule.matcher, rule.name, rule.points);
      const api = options.apiFor(rule);
      const chains = rule.mode === "background" ? this.backgroundChains : this.chains;
      for (const point of rule.points) {
        const chain = chains.get(point) ?? [];
        const test = matches.get(point);
        chain.push({ rule, matches: test === always ? undefined : test, api });
        chains.set(point, chain);
      }
    }
  }

  /** The synchronous chain at a point, then the background hooks, in execution order. */
  chain(point: Point): { sync: CompiledHook[]; background: CompiledHook[] } {
    return {
      sync: (this.chains.get(point) ?? []).map((e) => e.rule),
      background: (this.backgroundChains.get(point) ?? []).map((e) => e.rule),
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
    for (let i = 0; i < chain.length; i++) {
      const entry = chain[i] as Entry;
      if (entry.matches) {
        const match = this.match(entry, outcome, stopwatch);
        if (match === "stop") break;
        if (match === "skip") continue;
      }
      if (entry.rule.batch) {
        const next = await this.runBatch(chain, i, outcome, stopwatch);
        if (next === "stop") break;
        i = next - 1;
        continue;
      }
      // Fast path: stay synchronous until a hook returns a thenable.
      const stop = this.runOne(entry, outcome, stopwatch);
      if (stop === true || (stop !== false && (await stop))) break;
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

  /** Whether the hook runs; a ctx value its matcher cannot read (a throwing getter) is its failure. */
  private match(entry: Entry, outcome: ChainOutcome, stopwatch: Stopwatch): "run" | "skip" | "stop" {
    try {
      const answer = entry.matches?.(outcome.ctx);
      if (answer === false) return "skip";
      if (typeof answer === "object") this.late(entry, outcome, answer);
      return "run";
    } catch (error) {
      return this.fail(entry, outcome, undefined, stopwatch, error) ? "stop" : "skip";
    }
  }

  /** Runs one hook of the chain; true when the chain stops there. A promise only if the hook returned one. */
  private runOne(entry: Entry, outcome: ChainOutcome, stopwatch: Stopwatch): boolean | Promise<boolean> {
    const { rule } = entry;
    const journal = new CtxJournal<AnyCtx>(outcome.ctx);
    let result: unknown;
    let answer: Promise<unknown> | undefined;
    try {
      result = rule.run(outcome.point, journal.view, entry.api);
      if (isThenable(result)) answer = this.within(result, rule, outcome.point);
    } catch (error) {
      return this.fail(entry, outcome, journal, stopwatch, error);
    }
    if (answer) return this.settle(entry, outcome, journal, stopwatch, answer);
    return this.finish(entry, outcome, journal, stopwatch, result);
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
    const batch = first.rule.batch as HookBatch;
    const members: Array<{ entry: Entry; index: number }> = [{ entry: first, index: start }];
    for (let next = start + 1; next < chain.length; next++) {
      const entry = chain[next] as Entry;
      if (entry.rule.batch !== batch) break;
      let matched: boolean | LateMatch = true;
      try {
        matched = entry.matches?.(outcome.ctx) ?? true;
      } catch {
        break; // the main loop tests it again and reports the failure in its place
      }
      if (typeof matched === "object") this.late(entry, outcome, matched);
      if (matched) members.push({ entry, index: next });
    }
    const rules = members.map((m) => m.entry.rule);
    const ms = rules.reduce((sum, rule) => sum + rule.timeoutMs, 0);
    let answers: BatchAnswer[];
    try {
      answers = await this.within(
        batch.run(outcome.point, outcome.ctx, rules),
        first.rule,
        outcome.point,
        ms,
      );
      if (answers.length === 0) throw new Error("the batch answered for no hook");
    } catch (error) {
      return this.fail(first, outcome, undefined, stopwatch, error) ? "stop" : start + 1;
    }
    stopwatch.lap();
    for (const [k, answer] of answers.slice(0, members.length).entries()) {
      const { entry } = members[k] as { entry: Entry };
      const journal = new CtxJournal<AnyCtx>(outcome.ctx);
      const clock = { lap: () => answer.ms };
      const stop = answer.ok
        ? this.finish(entry, outcome, journal, clock, answer.value)
        : this.fail(entry, outcome, journal, clock, answer.error);
      if (stop) return "stop";
    }
    // Hooks skipped after the last one that answered are matched again: its rewrite may make them match.
    const last = members[Math.min(answers.length, members.length) - 1] as { index: number };
    return last.index + 1;
  }

  private async settle(
    entry: Entry,
    outcome: ChainOutcome,
    journal: CtxJournal<AnyCtx>,
    stopwatch: Stopwatch,
    answer: Promise<unknown>,
  ): Promise<boolean> {
    let result: unknown;
    try {
      result = await answer;
    } catch (error) {
      return this.fail(entry, outcome, journal, stopwatch, error);
    }
    return this.finish(entry, outcome, journal, stopwatch, result);
  }

  private finish(
    entry: Entry,
    outcome: ChainOutcome,
    journal: CtxJournal<AnyCtx>,
    stopwatch: Lap,
    result: unknown,
  ): boolean {
    const { rule } = entry;
    const { point } = outcome;
    let effects: Effect[];
    try {
      const decision = parseDecision(result, rule, point);
      // Applying can throw too (a returned rewrite too deep to store): nothing reaches the outcome before the rewrite is checked.
      effects = applyDecision(rule, point, decision, journal, outcome, (message) =>
        this.warn(outcome, rule.name, point, message),
      );
    } catch (error) {
      return this.fail(entry, outcome, journal, stopwatch, error);
    }
    journal.revoke();
    outcome.runs.push(run(rule, stopwatch.lap(), "ok", effects));
    return outcome.verdict === "block";
  }

  /** A hook that threw, timed out or answered nonsense: its writes are undone, and onError decides. */
  private fail(
    entry: Entry,
    outcome: ChainOutcome,
    journal: CtxJournal<AnyCtx> | undefined,
    stopwatch: Lap,
    thrown: unknown,
  ): boolean {
    journal?.rollback();
    journal?.revoke();
    const ms = stopwatch.lap();
    const { rule } = entry;
    const { point } = outcome;
    const error = asRunnerError(thrown, rule.name, point);
    const timedOut = error.code === "RUN_ERR_HOOK_TIMEOUT";
    const closed = rule.onError === "block" && blockable(point);
    const consequence = rule.broken
      ? 'blocking: a hook that cannot load fails closed; `"onError": "open"` under its name in hookyard.json opts out'
      : closed
        ? "blocking, as its onError is block"
        : "ignored, ctx restored";
    this.options.logger.error(
      `hook "${rule.name}" (${rule.origin}) at ${point} ${timedOut ? "timed out" : "failed"}: ${errorText(error)} (${consequence})`,
    );
    outcome.warnings.push({ hook: rule.name, point, code: error.code, message: error.message });
    outcome.runs.push(run(rule, ms, timedOut ? "timeout" : "error", closed ? ["block"] : []));
    if (!closed) return false;
    outcome.verdict = "block";
    outcome.blockedBy = {
      hook: rule.name,
      reason: rule.broken
        ? `hook "${rule.name}" ${rule.broken.reason}`
        : `hook "${rule.name}" failed and blocks on error: ${errorText(error)}`,
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

  /** A matcher test stopped by the regex budget counts as a match (see LateMatch); it is said, every time. */
  private late(entry: Entry, outcome: ChainOutcome, late: LateMatch): void {
    this.warn(outcome, entry.rule.name, outcome.point, lateMatchText(late), "RUN_ERR_MATCHER_TIMEOUT");
  }

  private within<T>(
    promise: PromiseLike<T>,
    rule: CompiledHook,
    point: Point,
    timeoutMs = rule.timeoutMs,
  ): Promise<T> {
    const ms = timeoutMs + (rule.selfTimed ? selfTimedGraceMs + (rule.startupMs ?? 0) : 0);
    return new Promise<T>((resolve, reject) => {
      const watch = this.watchdog.start(ms, () => {
        reject(
          new RunnerError("RUN_ERR_HOOK_TIMEOUT", `no answer within ${timeoutMs} ms`, {
            hook: rule.name,
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
                { hook: rule.name, point },
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
      let matched: boolean | LateMatch = true;
      try {
        matched = entry.matches?.(outcome.ctx) ?? true;
      } catch (error) {
        this.warn(outcome, entry.rule.name, point, `was not run: its matcher failed (${errorText(error)})`);
        continue;
      }
      if (!matched) continue;
      if (typeof matched === "object") this.late(entry, outcome, matched);
      if (this.pending.size >= this.backgroundLimit) {
        this.warn(
          outcome,
          entry.rule.name,
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
          entry.rule.name,
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
    const { rule } = entry;
    try {
      const result = rule.run(point, ctx, { ...entry.api, outcome: { ...verdict } });
      if (isThenable(result)) await this.within(result, rule, point);
    } catch (error) {
      this.options.logger.error(`background hook "${rule.name}" at ${point} failed: ${errorText(error)}`);
    }
  }
}

function run(rule: CompiledHook, ms: number, status: HookRun["status"], effects: Effect[]): HookRun {
  return {
    hook: rule.name,
    origin: rule.origin,
    trust: rule.trust,
    engine: rule.engine,
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
