import type { HookDefinition } from "../../core/hook.js";
import { auditLog } from "./audit-log.js";

/** Hooks shipped with hookyard, built for one workspace root. A workspace hook of the same name replaces one. */
export function builtinHooks(root: string): HookDefinition[] {
  return [auditLog(root)];
}
