import { SandboxError } from "../errors.js";
import type { SandboxLimits } from "../wire/types.js";

export const defaultSandboxLimits: SandboxLimits = Object.freeze({
  memoryMb: 32,
  cpuMs: 100,
  wallMs: 5_000,
  maxCtxBytes: 2 * 1024 * 1024,
  maxResultBytes: 2 * 1024 * 1024,
  maxLogBytes: 16 * 1024,
});

/**
 * How long a fresh process may take to boot Node and load isolated-vm, from the fork to its
 * "ready". It is the process's limit, not any hook's: a hook's wall timer starts only once the
 * process is ready to run it. Generous, since on a busy machine (a load of 10 on 2 cores) starting
 * Node alone can take seconds; a process not ready by then is killed, and the hooks waiting for it
 * answer SANDBOX_ERR_STARTUP without having run.
 */
export const sandboxStartupMs = 30_000;

/** isolated-vm refuses less. */
const minMemoryMb = 8;

/** Later layers win; every field must end up a positive integer. */
export function resolveLimits(...layers: (Partial<SandboxLimits> | undefined)[]): SandboxLimits {
  const limits: SandboxLimits = { ...defaultSandboxLimits };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (!(key in defaultSandboxLimits)) {
        throw new SandboxError("SANDBOX_ERR_OPTIONS", `unknown sandbox limit "${key}"`);
      }
      if (value === undefined) continue;
      if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
        throw new SandboxError("SANDBOX_ERR_OPTIONS", `sandbox limit ${key} must be a positive integer`);
      }
      limits[key as keyof SandboxLimits] = value;
    }
  }
  if (limits.memoryMb < minMemoryMb) {
    throw new SandboxError("SANDBOX_ERR_OPTIONS", `sandbox limit memoryMb must be at least ${minMemoryMb}`);
  }
  return limits;
}
