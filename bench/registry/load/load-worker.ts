/** The worker thread behind runLoadInThread: runs one load and posts its result. */
import { parentPort, workerData } from "node:worker_threads";
import { type LoadOptions, runLoad } from "./load.js";

parentPort?.postMessage(await runLoad(workerData as LoadOptions));
