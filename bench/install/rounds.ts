import type { Contender } from "./contenders.js";

/**
 * Interleaved rounds: each round runs every contender once, in the same order, so drift (other
 * processes, thermal limits, the page cache) lands on all of them alike. Warm-up rounds fill the
 * OS caches for node, npm and the registries' code and are not kept.
 */

export interface RoundOptions {
  warmup: number;
  rounds: number;
}

export async function runRounds(
  contenders: readonly Contender[],
  options: RoundOptions,
  log: (line: string) => void,
  signal: AbortSignal,
): Promise<Map<Contender, number[]>> {
  const samples = new Map(contenders.map((contender) => [contender, [] as number[]]));
  const total = options.warmup + options.rounds;
  for (let round = 0; round < total; round++) {
    const times: string[] = [];
    for (const contender of contenders) {
      signal.throwIfAborted();
      const ms = await contender.once(signal);
      if (round >= options.warmup) samples.get(contender)?.push(ms);
      times.push(`${contender.label} ${Math.round(ms)} ms`);
    }
    const which =
      round < options.warmup
        ? `warm-up ${round + 1}/${options.warmup}`
        : `round ${round - options.warmup + 1}/${options.rounds}`;
    log(`${which}: ${times.join(", ")}`);
  }
  return samples;
}
