import { cpus } from "node:os";

/**
 * Small timing helpers shared by the benches: warm-up, then interleaved rounds so that drift
 * (turbo, GC pressure, other processes) hits every contender alike. Reports the mean over all
 * timed rounds (total / iterations) and the median and best round, to show the noise.
 */

export interface Contender {
  name: string;
  /** One operation (e.g. one chain dispatch). Awaited every time, so every contender pays one await. */
  op: () => unknown;
}

export interface MeasureOptions {
  /** Operations run before timing, per contender. */
  warmup: number;
  /** Target operations per contender, over all rounds. */
  iterations: number;
  rounds: number;
  /** Wall-clock budget per contender for the timed rounds; fewer iterations run past it. */
  budgetMs: number;
}

export interface Measurement {
  name: string;
  iterations: number;
  /** All timed rounds together (total / iterations), in ns per operation. */
  meanNs: number;
  /** Median over rounds, in ns per operation. */
  medianNs: number;
  /** Fastest round, in ns per operation. */
  bestNs: number;
  /** Slowest round, in ns per operation. */
  worstNs: number;
}

async function timeBatch(op: () => unknown, count: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await op();
  return Number(process.hrtime.bigint() - start);
}

/** Runs every contender in interleaved rounds; each round's batch size is sized from the warm-up. */
export async function measure(
  contenders: readonly Contender[],
  options: MeasureOptions,
): Promise<Measurement[]> {
  const roundBudgetNs = (options.budgetMs * 1e6) / options.rounds;
  const plans = [];
  for (const contender of contenders) {
    const warmNs = await timeBatch(contender.op, options.warmup);
    const perOp = Math.max(warmNs / options.warmup, 1);
    const wanted = Math.ceil(options.iterations / options.rounds);
    const batch = Math.max(1, Math.min(wanted, Math.floor(roundBudgetNs / perOp)));
    plans.push({ contender, batch, samples: [] as number[], iterations: 0, totalNs: 0 });
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const plan of plans) {
      const ns = await timeBatch(plan.contender.op, plan.batch);
      plan.samples.push(ns / plan.batch);
      plan.iterations += plan.batch;
      plan.totalNs += ns;
    }
  }
  return plans.map(({ contender, samples, iterations, totalNs }) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      name: contender.name,
      iterations,
      meanNs: totalNs / iterations,
      medianNs: median(sorted),
      bestNs: sorted[0] ?? Number.NaN,
      worstNs: sorted[sorted.length - 1] ?? Number.NaN,
    };
  });
}

function median(sorted: readonly number[]): number {
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** 12.3 ns, 4.56 µs, 7.89 ms. */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return "-";
  if (ns < 1e3) return `${ns.toFixed(ns < 100 ? 1 : 0)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
  return `${(ns / 1e6).toFixed(ns < 1e7 ? 2 : 1)} ms`;
}

export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return "-";
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(1);
}

/** A plain text table: first row is the header; columns after the first are right-aligned. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
  const [header, ...body] = rows;
  if (!header) return "";
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...body.map(line)].join("\n");
}

/** Node version, platform, CPU and date, so a pasted table says where it came from. */
export function environmentLine(): string {
  const cpus = cpuInfo();
  return `node ${process.version} (${process.platform}/${process.arch}, ${cpus}), ${new Date().toISOString()}`;
}

function cpuInfo(): string {
  const list = cpus();
  return `${list.length} x ${list[0]?.model.trim() ?? "unknown cpu"}`;
}

/** Peak resident memory of this process so far. */
export function maxRssLine(): string {
  return `max RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`;
}
