/**
 * The sandbox for community hooks: isolated-vm isolates, one per hook, in a supervised sandbox
 * process (or, with `isolation: "inline"`, in this one), reaching the outside only through the
 * capability broker. Nothing here loads isolated-vm into this process unless isolation is inline.
 */
export { SandboxError, type SandboxErrorCode, sandboxErrorCodes, sandboxErrorMeaning } from "./errors.js";
export { defaultSandboxLimits, sandboxStartupMs } from "./runtime/limits.js";
export { createSandbox } from "./runtime/sandbox.js";
export type {
  HookAnswer,
  HostServices,
  RunOptions,
  Sandbox,
  SandboxHook,
  SandboxLimits,
  SandboxOptions,
  SyncChainVerdict,
} from "./runtime/types.js";
