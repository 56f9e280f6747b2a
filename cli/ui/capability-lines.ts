import { describeCapabilities } from "../../package/capability-wording.js";
import { safeTable } from "./terminal-text.js";

// The words are the registry's package pages' (built on describeGrant and highestRisk), so a
// capability reads the same in the browser, in `info` and at the install prompt.
export {
  type CapabilityLine,
  type CapabilitySummary,
  describeCapabilities,
} from "../../package/capability-wording.js";

/**
 * Requested capabilities (grant strings) as a terminal shows them: one line each, riskiest first
 * (risk, plain words, the grant string as --grant takes it), then "Risk level: <highest>";
 * "requests no capabilities" when there are none. A grant's path may hold any character but NUL,
 * so every cell is made a safe terminal line.
 */
export function capabilityLines(requested: readonly string[], indent = "  "): string {
  const { lines, risk } = describeCapabilities(requested);
  if (lines.length === 0) return `${indent}requests no capabilities\n`;
  const rows = lines.map((line) => [line.risk, line.text, line.grant]);
  return `${safeTable(rows, indent)}Risk level: ${risk}\n`;
}
