import { Client, type Dispatcher, Pool } from "undici";
import { processCpuMicros } from "./process-cpu.js";

/**
 * The load generator both registries get: a fixed number of keep-alive connections, each sending
 * its next request as soon as the last answer was read in full, for a warm-up and then a fixed
 * time. It runs in the bench process, on the same cores as the server under test, so it is the
 * same for both peers and only the ratio between them is fair, not the absolute numbers. It speaks
 * HTTP through undici rather than node:http's client, which took about 1.6 times the CPU per
 * call here: every microsecond the generator spends is one the server under test cannot.
 */

export interface HttpCall {
  method: "GET" | "PUT";
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface LoadOptions {
  /**
   * The server's port, or its processes' ports: the i-th request goes to ports[i % ports.length]
   * (round-robin per request, so a one-at-a-time publish reaches every process too), over a
   * keep-alive pool per port.
   */
  ports: readonly number[];
  connections: number;
  warmupMs: number;
  /**
   * Warm up with this many calls first (a read warm-up that visits every package once), then for
   * `warmupMs` more: a first pass fills the server's caches, and the garbage it leaves behind is
   * collected in the next second or so, which would otherwise land in the measured window.
   */
  warmupCalls?: number;
  /**
   * The count warm-up ends after this long even if not every call was sent: a server that answers
   * a few hundred a second (tarballs from an S3 emulator) would take minutes to visit them all.
   */
  warmupMaxMs?: number;
  durationMs: number;
  /** Send at most this many calls, warm-up included (a publish uses up a prepared version). */
  maxCalls?: number;
  /**
   * Go on past `durationMs` until this many calls were measured, for at most `overtimeMs` more:
   * a server that takes seconds per call still gets a percentile that means something.
   */
  minCalls?: number;
  overtimeMs?: number;
  /** The i-th request sends `calls[i % calls.length]`; i counts from 0 over warm-up and measurement. */
  calls: readonly HttpCall[];
  /** Statuses that count as success. */
  okStatuses: readonly number[];
  /** Stops sending (Ctrl-C): the servers are going away. */
  signal?: AbortSignal;
  /** The server's pids: their CPU time over the measured window, summed, is divided by the calls measured. */
  serverPids?: readonly number[];
}

export interface LoadResult {
  calls: number;
  errors: number;
  /** The first failing status and body, to show when something went wrong. */
  firstError?: string;
  elapsedMs: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /**
   * Server CPU (user + system) per measured call, in µs: what the server itself spends, which the
   * shared generator cannot distort the way it caps req/s. NaN without a pid.
   */
  serverCpuMicros: number;
}

export interface Answer {
  status: number;
  /** Kept only when the status is not a success, to say what went wrong. */
  body: Buffer;
}

const callTimeoutMs = 30_000;

async function send(
  dispatcher: Dispatcher,
  call: HttpCall,
  ok: (status: number) => boolean,
): Promise<Answer> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.body) headers["content-length"] = String(call.body.length);
  const { statusCode, body } = await dispatcher.request({
    method: call.method,
    path: call.path,
    headers,
    ...(call.body ? { body: call.body } : {}),
    headersTimeout: callTimeoutMs,
    bodyTimeout: callTimeoutMs,
  });
  // A good answer is read to the end but not kept: the generator's CPU is the server's too.
  if (ok(statusCode)) {
    await body.dump({ limit: Number.POSITIVE_INFINITY });
    return { status: statusCode, body: Buffer.alloc(0) };
  }
  return { status: statusCode, body: Buffer.from(await body.arrayBuffer()) };
}

/** One request outside any measurement, for the checks before a bench; the body is always kept. */
export async function sendOnce(port: number, call: HttpCall): Promise<Answer> {
  const client = new Client(`http://127.0.0.1:${port}`);
  try {
    return await send(client, call, () => false);
  } finally {
    await client.destroy();
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.calls.length === 0) throw new Error("runLoad needs at least one call");
  const ok = (status: number) => options.okStatuses.includes(status);
  // Each pool may hold every connection: a request never waits for a socket of its port's pool.
  const pools = options.ports.map(
    (port) => new Pool(`http://127.0.0.1:${port}`, { connections: options.connections }),
  );
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const warmupCalls = options.warmupCalls ?? 0;
  // With a count warm-up, nothing is measured (and nothing stops) until the count is reached.
  let measureFrom = warmupCalls > 0 ? Number.POSITIVE_INFINITY : start + options.warmupMs;
  let stopAt = measureFrom + options.durationMs;
  let hardStopAt = stopAt + (options.overtimeMs ?? 0);
  let cpuAtStart: number | undefined;
  const serverCpu = () => {
    if (!options.serverPids || options.serverPids.length === 0) return undefined;
    let sum = 0;
    for (const pid of options.serverPids) {
      const micros = processCpuMicros(pid);
      if (micros === undefined) return undefined;
      sum += micros;
    }
    return sum;
  };
  const beginMeasuring = () => {
    cpuAtStart = serverCpu();
  };
  let cpuTimer: NodeJS.Timeout | undefined;
  if (warmupCalls === 0) cpuTimer = setTimeout(beginMeasuring, options.warmupMs);
  const maxCalls = options.maxCalls ?? Number.POSITIVE_INFINITY;
  const minCalls = options.minCalls ?? 0;
  const goOn = () => {
    if (options.signal?.aborted || next >= maxCalls) return false;
    const now = performance.now();
    return now < stopAt || (latencies.length + errors < minCalls && now < hardStopAt);
  };

  const connection = async () => {
    while (goOn()) {
      const warmedUp =
        next >= warmupCalls || performance.now() - start > (options.warmupMaxMs ?? Number.POSITIVE_INFINITY);
      if (warmupCalls > 0 && measureFrom === Number.POSITIVE_INFINITY && warmedUp) {
        // The count warm-up ended: measuring starts after warmupMs more.
        measureFrom = performance.now() + options.warmupMs;
        stopAt = measureFrom + options.durationMs;
        hardStopAt = stopAt + (options.overtimeMs ?? 0);
        cpuTimer = setTimeout(beginMeasuring, Math.max(0, measureFrom - performance.now()));
      }
      const pool = pools[next % pools.length] as Pool;
      const call = options.calls[next++ % options.calls.length] as HttpCall;
      const sent = performance.now();
      let failure: string | undefined;
      try {
        const answer = await send(pool, call, ok);
        if (!ok(answer.status)) failure = `${answer.status} ${answer.body.toString().slice(0, 300)}`;
      } catch (error) {
        failure = (error as Error).message;
      }
      // Calls sent during the warm-up are not counted, even when they end after it.
      if (sent < measureFrom) continue;
      if (failure === undefined) latencies.push(performance.now() - sent);
      else {
        errors++;
        firstError ??= `${call.method} ${call.path}: ${failure}`;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, connection));
  } finally {
    clearTimeout(cpuTimer);
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
  const cpuAtEnd = serverCpu();
  const measured = latencies.length + errors;
  const serverCpuMicros =
    cpuAtStart !== undefined && cpuAtEnd !== undefined && measured > 0
      ? (cpuAtEnd - cpuAtStart) / measured
      : Number.NaN;
  const elapsedMs = Math.max(performance.now() - measureFrom, 1);
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    errors,
    firstError,
    elapsedMs,
    perSecond: (latencies.length / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    serverCpuMicros,
  };
}

/** Nearest-rank percentile of sorted values; NaN when there are none. */
function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] as number;
}
