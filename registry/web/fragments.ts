import { describeCapabilities } from "../../package/capability-wording.js";
import type { Risk } from "../../sandbox/capabilities.js";
import { html, type SafeHtml } from "./html.js";

/** Risk in words as well as colour, so it does not depend on seeing colour. */
export function riskBadge(risk: Risk): SafeHtml {
  return html`<span class="badge risk-level risk-${risk}">${risk} risk</span>`;
}

/** A date (UTC day) with the exact time in the markup. */
export function dateTime(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
}

const numbers = new Intl.NumberFormat("en");

export function counted(n: number, one: string, many: string): string {
  return `${numbers.format(n)} ${n === 1 ? one : many}`;
}

/** Badges for a listing: the overall risk, then up to `max` capabilities, riskiest first. */
export function capabilityBadges(grants: readonly string[], max = 4): SafeHtml {
  const { lines, risk } = describeCapabilities(grants);
  const shown = lines.slice(0, max);
  const more = lines.length - shown.length;
  return html`<ul class="badges" aria-label="Requested capabilities">
<li>${riskBadge(risk)}</li>
${lines.length === 0 ? html`<li class="badge risk-low">asks for no capabilities</li>` : ""}
${shown.map((line) => html`<li class="badge risk-${line.risk}" title="${line.grant}">${line.text}</li>`)}
${more > 0 ? html`<li class="badge">and ${more} more</li>` : ""}
</ul>`;
}
