/**
 * The sandbox process: holds the isolates of community hooks, away from the agent's process, and
 * talks to its supervisor over the IPC channel only. Hook logs ride on answers; state calls go to
 * the parent, where the runner's HostServices live.
 */
import { SandboxRuntime } from "../runtime/runtime.js";
import type { RuntimeServices } from "../runtime/types.js";
import type { FromHost, ToHost } from "./protocol.js";

const send = (message: FromHost): void => {
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

let runtime: SandboxRuntime | undefined;

function started(): SandboxRuntime {
  if (!runtime) throw new Error("the sandbox process got a request before init");
  return runtime;
}

process.on("message", (message: ToHost) => {
  switch (message.t) {
    case "init":
      try {
        runtime = new SandboxRuntime({
          root: message.root,
          auditFile: message.auditFile,
          hosts: message.hosts,
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
      send({ t: "ready" });
      return;
    case "run": {
      const ready = started();
      const ids = message.hooks.map((hook) => {
        if (typeof hook === "string") return hook;
        ready.register(hook);
        return hook.id;
      });
      void ready.run(
        { point: message.point, ctxJson: message.ctx, outcome: message.outcome },
        ids,
        (answer, logs, last) =>
          send({ t: "answer", r: message.r, answer, ...(logs.length > 0 ? { logs } : {}), last }),
      );
      return;
    }
    case "drop":
      started().drop(message.id);
      return;
    case "state": {
      const call = stateCalls.get(message.q);
      stateCalls.delete(message.q);
      if (message.ok) call?.resolve(message.value);
      else call?.reject(Object.assign(new Error("the runner's state call failed"), { code: message.code }));
      return;
    }
    case "close":
      void (runtime?.close() ?? Promise.resolve()).finally(() => process.exit(0));
      return;
  }
});

// The supervisor is gone (the agent exited or crashed): nothing is left to serve.
process.on("disconnect", () => process.exit(0));
