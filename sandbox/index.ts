/**
 * The sandbox for community hooks: isolated-vm isolates, one per hook, in a supervised sandbox
 * process (or, with `isolation: "inline"`, in this one), reaching the outside only through the
 * capability broker. Nothing here loads isolated-vm into this process unless isolation is inline.
 */
export { SandboxError, type SandboxErrorCode, sandboxErrorCodes, sandboxErrorMeaning } from "./errors.js";
export { defaultSandboxLimits, sandboxStartupMs } from "./parent/limits.js";
export { createSandbox } from "./parent/sandbox.js";
export type { ParentServices, RunOptions, Sandbox, SandboxHook, SandboxOptions } from "./parent/types.js";
export type { HookAnswer, SandboxLimits, SyncChainVerdict } from "./wire/types.js";
