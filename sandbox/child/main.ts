/**
 * The sandbox process: holds the isolates of community hooks, away from the agent's process, and
 * talks to its supervisor over the IPC channel (and the progress file) only. Hook logs ride on
 * answers; state calls go to the parent, where the runner's ParentServices live.
 *
 * It imports the runtime (and isolated-vm with it) only once the supervisor's init arrives, and
 * says it is ready after that: everything before is the bare cost of starting Node.
 */

import { ProgressWriter } from "../wire/progress-file.js";
import type { FromSandbox, ToSandbox } from "../wire/protocol.js";
import type { RunRequest } from "../wire/types.js";
import { BatchReport } from "./batch-report.js";
import type { SandboxRuntime } from "./runtime.js";
import type { RuntimeServices } from "./types.js";

const send = (message: FromSandbox): void => {
  process.send?.(message);
};

const stateCalls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextStateCall = 0;

function askParent(
  request:
    | { op: "get"; hook: string; key: string }
    | { op: "set"; hook: string; key: string; value: unknown },
): Promise<unknown> {
  const q = ++nextStateCall;
  return new Promise((resolve, reject) => {
    stateCalls.set(q, { resolve, reject });
    send({ t: "state", q, ...request });
  });
}

const services: RuntimeServices = {
  stateGet: (hook, key) => askParent({ op: "get", hook, key }),
  stateSet: async (hook, key, value) => {
    await askParent({ op: "set", hook, key, value });
  },
};

let booting: Promise<SandboxRuntime> | undefined;
/** Set once booted, so that calls skip a promise hop. */
let runtime: SandboxRuntime | undefined;
let progress: ProgressWriter | undefined;

async function boot(init: Extract<ToSandbox, { t: "init" }>): Promise<SandboxRuntime> {
  let created: SandboxRuntime;
  try {
    const { SandboxRuntime } = await import("./runtime.js");
    created = new SandboxRuntime({
      root: init.root,
      auditFile: init.auditFile,
      hosts: init.hosts,
      services,
      // isolated-vm says the process must not go on; dying lets the supervisor restart it clean.
      onCatastrophicError: (text) => {
        process.stderr.write(`hookyard sandbox: isolated-vm catastrophic error: ${text}\n`);
        process.kill(process.pid, "SIGKILL");
      },
    });
  } catch (error) {
    process.stderr.write(`hookyard sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(78);
  }
  runtime = created;
  send({ t: "ready" });
  return created;
}

/** Runs `use` with the runtime, at once when it is booted, in arrival order while it boots. */
function withRuntime(use: (ready: SandboxRuntime) => void): void {
  if (runtime) use(runtime);
  else if (booting) void booting.then(use);
  else throw new Error("the sandbox process got a request before init");
}

function run(ready: SandboxRuntime, message: Extract<ToSandbox, { t: "run" }>): void {
  const ids = message.hooks.map((hook) => {
    if (typeof hook === "string") return hook;
    ready.register(hook);
    return hook.id;
  });
  const request: RunRequest = { point: message.point, ctxJson: message.ctx, outcome: message.outcome };
  const report = new BatchReport(message.r, message.slot, progress, send);
  void ready.run(request, ids, (answer, logs, last) => report.add(answer, logs, last));
}

process.on("message", (message: ToSandbox) => {
  switch (message.t) {
    case "init":
      progress = ProgressWriter.open(message.progressFd);
      booting ??= boot(message);
      return;
    case "run":
      withRuntime((ready) => run(ready, message));
      return;
    case "drop":
      withRuntime((ready) => ready.drop(message.id));
      return;
    case "state": {
      const call = stateCalls.get(message.q);
      stateCalls.delete(message.q);
      if (message.ok) call?.resolve(message.value);
      else call?.reject(Object.assign(new Error("the runner's state call failed"), { code: message.code }));
      return;
    }
    case "close":
      void (booting ?? Promise.resolve(undefined))
        .then((ready) => ready?.close())
        .finally(() => process.exit(0));
      return;
  }
});

// The supervisor is gone (the agent exited or crashed): nothing is left to serve.
process.on("disconnect", () => process.exit(0));
