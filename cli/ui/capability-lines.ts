import type { GrantsAfterChange } from "../../client/install/change-grants.js";
import { describeCapabilities } from "../../package/capability-wording.js";
import { describeGrant, parseGrant } from "../../sandbox/capabilities.js";
import type { CliContext } from "../command.js";
import { safeTable, terminalLine } from "./terminal-text.js";

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

/** A requested capability in plain words with its risk, as install prompts and `grant` show it. */
export function grantLine(text: string): string {
  const grant = parseGrant(text);
  // The client checked every grant it returns; one that does not parse is shown as it is.
  if (typeof grant === "string") return terminalLine(text);
  const { text: words, risk } = describeGrant(grant);
  // A requested path may hold terminal escapes: what a package asks for is shown, never obeyed.
  return terminalLine(`${words} (${risk} risk) [${text}]`);
}

/** What `grant` and `revoke` print: the package's grants after the change. */
export function printGrants(context: CliContext, after: GrantsAfterChange, json: boolean): void {
  if (json) {
    context.stdout.write(`${JSON.stringify(after, null, 2)}\n`);
    return;
  }
  for (const grant of after.removed) context.stdout.write(`revoked ${grantLine(grant)}\n`);
  for (const grant of after.added) context.stdout.write(`granted ${grantLine(grant)}\n`);
  if (after.added.length + after.removed.length === 0) context.stdout.write("nothing changed\n");
  context.stdout.write(
    `${after.name}@${after.version} is granted:${after.grants.length === 0 ? " nothing" : ""}\n`,
  );
  for (const grant of after.grants) context.stdout.write(`  ${grantLine(grant)}\n`);
}
