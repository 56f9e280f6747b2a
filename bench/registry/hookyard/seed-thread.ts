import { Worker } from "node:worker_threads";
import type { PackedVersion } from "../packed-corpus.js";
import type { HookyardStorage } from "./hookyard-server.js";

const workerFile = new URL("./seed-worker.js", import.meta.url);

export type SeedMessage =
  | { kind: "progress"; done: number; total: number }
  | { kind: "done"; token: string }
  | { kind: "failed"; message: string };

/**
 * seedHookyard in a worker thread: two imports at once (sqlite and PostgreSQL) then check and sign
 * on two cores rather than taking turns on this process's one thread. The corpus is copied into the
 * thread (structured clone of the tarballs, well under a second).
 */
export function seedHookyardInThread(
  storage: HookyardStorage,
  corpus: readonly PackedVersion[][],
  progress: (done: number, total: number) => void,
  signal: AbortSignal,
): Promise<string> {
  signal.throwIfAborted();
  const worker = new Worker(workerFile, { workerData: { storage, corpus }, execArgv: [] });
  return new Promise<string>((resolve, reject) => {
    const abort = () => {
      void worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    const settle = () => signal.removeEventListener("abort", abort);
    worker.on("message", (message: SeedMessage) => {
      if (message.kind === "progress") return progress(message.done, message.total);
      settle();
      if (message.kind === "done") resolve(message.token);
      else reject(new Error(message.message));
    });
    worker.once("error", (error) => {
      settle();
      reject(error);
    });
    worker.once("exit", (code) => {
      settle();
      reject(new Error(`the seeding thread exited (code ${code}) without a result`));
    });
  });
}
