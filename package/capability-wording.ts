import type { Effect, Point } from "../core/events.js";
import { describeGrant, highestRisk, parseGrant, type Risk } from "../sandbox/capabilities.js";

/**
 * What a hook package could do, in words a person choosing one reads. Capabilities are worded by
 * sandbox/capabilities.ts (describeGrant, the same words as the CLI's install prompt); this adds
 * the points a hook runs at and the effects it may have.
 */

export interface CapabilityLine {
  /** The grant string, as `--grant` takes it. */
  grant: string;
  text: string;
  risk: Risk;
}

export interface CapabilitySummary {
  lines: CapabilityLine[];
  /** The highest risk among the lines; "low" when it asks for nothing. */
  risk: Risk;
}

const riskOrder: Risk[] = ["low", "medium", "high"];

/** Requested capabilities (grant strings) as plain words with risk, riskiest first. */
export function describeCapabilities(grants: readonly string[]): CapabilitySummary {
  const parsed = grants.map((grant) => ({ grant, parsed: parseGrant(grant) }));
  const lines = parsed.map(({ grant, parsed }): CapabilityLine => {
    // Stored grants were checked at publish; one this version cannot read is shown as it is, and feared.
    if (typeof parsed === "string") return { grant, text: `asks for "${grant}"`, risk: "high" };
    return { grant, ...describeGrant(parsed) };
  });
  lines.sort((a, b) => riskOrder.indexOf(b.risk) - riskOrder.indexOf(a.risk));
  const known = parsed.flatMap(({ parsed }) => (typeof parsed === "string" ? [] : [parsed]));
  const risk = known.length < parsed.length ? "high" : highestRisk(known);
  return { lines, risk };
}

const effectWords: Record<Effect, string> = {
  block: "can stop what the agent is about to do (a prompt, a tool call)",
  ask: "can ask you to confirm a tool call",
  continue: "can make the agent take another turn",
  inject: "can add text to what the model sees",
  notice: "can show you notices",
  rewrite: "can rewrite what it sees (prompts, tool arguments, tool results, model replies)",
};

export function describeEffect(effect: string): string {
  return Object.hasOwn(effectWords, effect) ? effectWords[effect as Effect] : `can ${effect}`;
}

const pointWords: Record<Point, string> = {
  agent_before: "when a session starts",
  agent_after: "when a session ends",
  turn_before: "when you submit a prompt",
  turn_after: "when the agent is about to stop",
  llm_before: "before each model call",
  llm_after: "after each model call",
  tool_before: "before a tool runs",
  tool_after: "after a tool succeeds",
  tool_error: "after a tool fails",
  compact_before: "before the history is compacted",
  notify: "when the agent wants your attention",
};

export function describePoint(point: string): string {
  return Object.hasOwn(pointWords, point)
    ? pointWords[point as Point]
    : "at a point this registry does not know";
}
