import { registerScriptProtocol } from "../runner/engines/script-protocols.js";
import { claudeScriptProtocol } from "./claude/hook-scripts/script-protocol.js";

/** Every coding agent whose hook scripts hookyard runs unchanged (a command hook's `profile`). */
export function registerScriptProtocols(): void {
  registerScriptProtocol(claudeScriptProtocol);
}
