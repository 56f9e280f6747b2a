import { describeCapabilities } from "../../package/capability-wording.js";
import type { Risk } from "../../sandbox/capabilities.js";
import { html, type SafeHtml } from "./html.js";

/** Risk in words as well as colour, so it does not depend on seeing colour. */
export function riskBadge(risk: Risk): SafeHtml {
  return html`<span class="badge risk-level risk-${risk}">${risk} risk</span>`;
}

/** A time as "3 days ago", with the exact time in its tooltip (title) and markup (datetime). */
export function dateTime(iso: string, now: Date): SafeHtml {
  return html`<time datetime="${iso}" title="${exactTime(iso)}">${timeAgo(iso, now)}</time>`;
}

/** `2026-12-03 06:50 UTC`. */
export function exactTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** How long before `now` the time `iso` was, in the largest whole unit: "3 days ago", "yesterday". */
export function timeAgo(iso: string, now: Date): string {
  const seconds = (now.getTime() - Date.parse(iso)) / 1000;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(-Math.trunc(seconds / size), unit);
  }
  // Under a minute, or a clock a little behind the publisher's.
  return "just now";
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
