/** The worker thread behind seedHookyardInThread: seeds one registry, posting progress and the token. */
import { parentPort, workerData } from "node:worker_threads";
import type { PackedVersion } from "../packed-corpus.js";
import { seedHookyard } from "./hookyard-seed.js";
import type { HookyardStorage } from "./hookyard-server.js";
import type { SeedMessage } from "./seed-thread.js";

const { storage, corpus } = workerData as { storage: HookyardStorage; corpus: PackedVersion[][] };
// Buffers arrive as Uint8Arrays from the structured clone.
for (const versions of corpus) {
  for (const v of versions)
    v.tarball = Buffer.from(v.tarball.buffer, v.tarball.byteOffset, v.tarball.byteLength);
}
const post = (message: SeedMessage) => parentPort?.postMessage(message);
try {
  const token = await seedHookyard(storage, corpus, (done, total) => post({ kind: "progress", done, total }));
  post({ kind: "done", token });
} catch (error) {
  post({ kind: "failed", message: (error as Error).message });
}
