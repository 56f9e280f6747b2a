import { isAbsolute, join } from "node:path";
import { SandboxError } from "../errors.js";
import { stopsBatch } from "../wire/stops-batch.js";
import type { HookAnswer, HookSpec } from "../wire/types.js";
import { sandboxEntryPath } from "./entry-path.js";
import { inlineBackend } from "./inline-backend.js";
import { resolveLimits } from "./limits.js";
import { Quarantine } from "./quarantine.js";
import { SandboxSupervisor } from "./supervisor.js";
import type { Backend, RunOptions, Sandbox, SandboxHook, SandboxOptions } from "./types.js";

const defaultQuarantineAfter = 3;

export function createSandbox(options: SandboxOptions): Sandbox {
  const { isolation, root, services } = options;
  if (isolation !== "process" && isolation !== "inline") {
    throw new SandboxError(
      "SANDBOX_ERR_OPTIONS",
      `isolation must be "process" or "inline", not ${String(isolation)}`,
    );
  }
  if (typeof root !== "string" || !isAbsolute(root)) {
    throw new SandboxError("SANDBOX_ERR_OPTIONS", "root must be an absolute path (the workspace root)");
  }
  const quarantineAfter = options.quarantineAfter ?? defaultQuarantineAfter;
  if (!Number.isInteger(quarantineAfter) || quarantineAfter < 1) {
    throw new SandboxError("SANDBOX_ERR_OPTIONS", "quarantineAfter must be a positive integer");
  }
  const baseLimits = resolveLimits(options.limits);
  const backendOptions = {
    root,
    services,
    auditFile: options.auditFile ?? join(root, ".hookyard", "logs", "capabilities.jsonl"),
    hosts: options.hosts,
  };
  const backend: Backend =
    isolation === "inline"
      ? inlineBackend(backendOptions)
      : new SandboxSupervisor({ ...backendOptions, entry: sandboxEntryPath() });

  const specs = new Map<string, HookSpec | HookAnswer>();
  const names = new Map<string, string>();
  const quarantine = new Quarantine(quarantineAfter, (id, message) => {
    backend.drop(id);
    services.warn(message);
  });
  let closed = false;

  /** A hook as the runtime takes it, made once per id; or why it cannot run. */
  const specOf = (hook: SandboxHook): HookSpec | HookAnswer => {
    const known = specs.get(hook.id);
    if (known) return known;
    let spec: HookSpec | HookAnswer;
    try {
      if (!Buffer.isBuffer(hook.code))
        throw new SandboxError("SANDBOX_ERR_OPTIONS", "its code is not a Buffer");
      spec = {
        id: hook.id,
        name: hook.name,
        source: hook.code.toString("utf8"),
        grants: [...hook.grants],
        limits: resolveLimits(baseLimits, hook.limits),
        ...(hook.config ? { config: hook.config } : {}),
      };
    } catch (error) {
      const message = `hook "${hook.name}" cannot run: ${error instanceof Error ? error.message : String(error)}`;
      spec = { hook: hook.id, status: "error", code: "SANDBOX_ERR_OPTIONS", message, ms: 0 };
    }
    specs.set(hook.id, spec);
    names.set(hook.id, hook.name);
    return spec;
  };

  /** What a hook answers without running: quarantined, not declared for the point, ctx too large. */
  const refusal = (
    hook: SandboxHook,
    spec: HookSpec,
    point: string,
    ctxBytes: number,
  ): HookAnswer | undefined => {
    if (quarantine.ids.has(hook.id)) return quarantine.answer(hook.id, hook.name);
    if (!hook.points.includes(point)) {
      const message = `hook "${hook.name}" is not declared for ${point}`;
      return { hook: hook.id, status: "error", code: "SANDBOX_ERR_NO_HANDLER", message, ms: 0 };
    }
    if (ctxBytes > spec.limits.maxCtxBytes) {
      const message = `the ctx is ${ctxBytes} bytes, more than maxCtxBytes (${spec.limits.maxCtxBytes})`;
      return { hook: hook.id, status: "error", code: "SANDBOX_ERR_CTX_TOO_LARGE", message, ms: 0 };
    }
    return undefined;
  };

  return {
    get quarantined() {
      return quarantine.ids;
    },
    get pid() {
      return backend.pid;
    },
    start() {
      if (!closed) backend.start();
    },
    async run(point: string, ctxJson: string, hooks: readonly SandboxHook[], runOptions: RunOptions = {}) {
      const first = hooks[0];
      if (!first) return [];
      if (closed) {
        return [
          {
            hook: first.id,
            status: "error",
            code: "SANDBOX_ERR_CLOSED",
            message: "the sandbox was closed",
            ms: 0,
          },
        ];
      }
      const ctxBytes = Buffer.byteLength(ctxJson);
      const runnable: HookSpec[] = [];
      let refused: HookAnswer | undefined;
      for (const hook of hooks) {
        const spec = specOf(hook);
        refused = "status" in spec ? spec : refusal(hook, spec as HookSpec, point, ctxBytes);
        if (refused) break;
        runnable.push(spec as HookSpec);
      }
      const answers =
        runnable.length > 0
          ? await backend.run({ point, ctxJson, outcome: runOptions.outcome }, runnable)
          : [];
      for (const answer of answers) quarantine.record(answer, names.get(answer.hook) ?? answer.hook);
      const last = answers.at(-1);
      if (refused && answers.length === runnable.length && !(last && stopsBatch(last))) answers.push(refused);
      return answers;
    },
    async close() {
      closed = true;
      await backend.close();
    },
  };
}
