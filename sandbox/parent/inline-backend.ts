import { assertIsolateFlags } from "../child/node-flags.js";
import type { SandboxRuntime } from "../child/runtime.js";
import type { HookAnswer } from "../wire/types.js";
import type { Backend, BackendOptions } from "./types.js";

/**
 * Isolates in this process. The runtime (and with it isolated-vm) is imported on the first call,
 * so choosing inline isolation costs nothing until a sandboxed hook runs.
 */
export function inlineBackend(options: BackendOptions): Backend {
  assertIsolateFlags();
  let runtime: SandboxRuntime | undefined;
  let loading: Promise<SandboxRuntime> | undefined;
  const load = async (): Promise<SandboxRuntime> => {
    const { SandboxRuntime } = await import("../child/runtime.js");
    runtime = new SandboxRuntime({
      root: options.root,
      auditFile: options.auditFile,
      hosts: options.hosts,
      services: options.services,
      onCatastrophicError: (message) =>
        options.services.warn(
          `isolated-vm lost control of a hook's isolate (${message}); this process may be unstable: restart it, and prefer process isolation`,
        ),
    });
    return runtime;
  };
  return {
    pid: undefined,
    // The agent's own process is up already; isolated-vm loads with the first call.
    start() {},
    async run(request, hooks) {
      loading ??= load();
      const ready = runtime ?? (await loading);
      for (const spec of hooks) ready.register(spec);
      const answers: HookAnswer[] = [];
      await ready.run(
        request,
        hooks.map((spec) => spec.id),
        (answer, logs) => {
          for (const line of logs) options.services.log(answer.hook, line);
          answers.push(answer);
        },
      );
      return answers;
    },
    drop(id) {
      runtime?.drop(id);
    },
    async close() {
      await (loading && (await loading))?.close();
    },
  };
}
