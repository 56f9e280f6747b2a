import type { Hooks, LoadHooksOptions } from "../runner/load/load-hooks.js";

/**
 * The workspace's hooks as every command loads them: with the coding agents' script protocols
 * registered first (a command hook's `profile`), and both loaded only when a command needs hooks.
 */
export async function loadWorkspaceHooks(options: LoadHooksOptions): Promise<Hooks> {
  const [{ loadHooks }, { registerScriptProtocols }] = await Promise.all([
    import("../runner/load/load-hooks.js"),
    import("../adapters/script-protocols.js"),
  ]);
  registerScriptProtocols();
  return loadHooks(options);
}
