import { Worker } from "node:worker_threads";
import type { LoadOptions, LoadResult } from "./load.js";

const workerFile = new URL("./load-worker.js", import.meta.url);

/**
 * runLoad in a worker thread, which has a V8 heap of its own. The bench process holds the whole
 * corpus (50,000 tarballs, their manifests and readmes); beside a heap like that the generator's
 * garbage collection slows it down (measured: 50,000 such objects in the generator's heap cost
 * it a quarter of its req/s against the same server), and that would cap both peers.
 */
export function runLoadInThread(
  options: Omit<LoadOptions, "signal">,
  signal: AbortSignal,
): Promise<LoadResult> {
  signal.throwIfAborted();
  // No flags from the bench process: --no-node-snapshot is not allowed in a worker's execArgv.
  const worker = new Worker(workerFile, { workerData: options, execArgv: [] });
  return new Promise<LoadResult>((resolve, reject) => {
    const abort = () => {
      void worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    const settle = () => signal.removeEventListener("abort", abort);
    worker.once("message", (result: LoadResult) => {
      settle();
      resolve(result);
    });
    worker.once("error", (error) => {
      settle();
      reject(error);
    });
    worker.once("exit", (code) => {
      settle();
      reject(new Error(`the load generator's thread exited (code ${code}) without a result`));
    });
  });
}
