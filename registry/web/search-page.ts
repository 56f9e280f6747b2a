import { points } from "../../core/events.js";
import { describePoint } from "../../package/capability-wording.js";
import { type BrowseQuery, browseHref, isFiltered, risks, type Sort, sorts } from "./browse-query.js";
import { capabilityBadges, counted, dateTime } from "./fragments.js";
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";
import type { Listing, ListingCard } from "./listings.js";
import { packageHref } from "./paths.js";

const sortWords: Record<Sort, string> = {
  relevance: "best match",
  downloads: "most downloads",
  updated: "recently updated",
  name: "name",
};

/**
 * GET /: the catalogue, sorted and filtered as the address says (a plain GET form, so it works
 * without JavaScript and a link reproduces the view). With no words and no filter, the first page
 * also shows what was published lately.
 */
export function browsePage(
  query: BrowseQuery,
  listing: Listing,
  recent: readonly ListingCard[],
  now: Date,
): SafeHtml {
  const filtered = isFiltered(query);
  const main = html`<h1>${filtered ? "Search results" : "Hooks for AI agents"}</h1>
${filtered ? "" : html`<p class="lead">Find a hook, see what it could touch, then install it in a sandbox.</p>`}
${
  !filtered && listing.page === 1 && recent.length > 0
    ? html`<section aria-labelledby="recent-heading">
<h2 id="recent-heading">Recently published</h2>
${cardList(recent, now)}
</section>`
    : ""
}
<div class="browse">
${controls(query)}
<section class="browse-results" aria-labelledby="${filtered ? "results-heading" : "popular-heading"}">
<h2 id="${filtered ? "results-heading" : "popular-heading"}">${filtered ? resultsHeading(query, listing.total) : "All hooks"}</h2>
${activeFilters(query)}
${
  listing.cards.length > 0
    ? cardList(listing.cards, now)
    : listing.total > 0
      ? html`<p>There are only ${listing.pages} pages of results.</p>`
      : filtered
        ? html`<p>No hook matches. Try fewer or shorter words (every word must match the start of a word in a name, description or keyword), or <a href="/">clear the filters</a>.</p>`
        : html`<p>Nothing has been published to this registry yet.</p>`
}
${pagination(query, listing)}
</section>
</div>`;
  const title =
    query.q === "" ? (listing.page === 1 ? "Hooks" : `Hooks, page ${listing.page}`) : `${query.q} — search`;
  return layout({ title, query: query.q, main });
}

function resultsHeading(query: BrowseQuery, total: number): string {
  const parts = [counted(total, "hook matches", "hooks match")];
  if (query.q !== "") parts.push(`“${query.q}”`);
  const filters = [
    query.owner === undefined ? "" : `owned by ${query.owner}`,
    query.keyword === undefined ? "" : `with keyword ${query.keyword}`,
    query.point === undefined ? "" : `at ${query.point}`,
    query.risk === undefined ? "" : `of ${query.risk} risk`,
  ].filter((part) => part !== "");
  if (query.q === "" && filters.length > 0) parts[0] = counted(total, "hook", "hooks");
  return [parts.join(" "), ...filters].join(", ");
}

/** The sort and filters as a GET form: owner and keyword come from links and ride along hidden. */
function controls(query: BrowseQuery): SafeHtml {
  const words = query.q.trim() !== "";
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ""}>${label}</option>`;
  return html`<form class="browse-controls" action="/" method="get" aria-label="Sort and filter">
${query.q === "" ? "" : html`<input type="hidden" name="q" value="${query.q}">`}
${query.owner === undefined ? "" : html`<input type="hidden" name="owner" value="${query.owner}">`}
${query.keyword === undefined ? "" : html`<input type="hidden" name="keyword" value="${query.keyword}">`}
<label for="browse-sort">Sort by</label>
<select id="browse-sort" name="sort">${sorts
    .filter((sort) => words || sort !== "relevance")
    .map((sort) => option(sort, sortWords[sort], sort === query.sort))}</select>
<label for="browse-risk">Risk level</label>
<select id="browse-risk" name="risk">${option("", "any", query.risk === undefined)}${risks.map((risk) =>
    option(risk, `${risk} risk`, risk === query.risk),
  )}</select>
<label for="browse-point">Hook point</label>
<select id="browse-point" name="point">${option("", "any", query.point === undefined)}${points.map((point) =>
    option(point, `${point}: ${describePoint(point)}`, point === query.point),
  )}</select>
<button type="submit">Apply</button>
</form>`;
}

/** Each filter that is on, with a link to the same view without it. */
function activeFilters(query: BrowseQuery): SafeHtml | string {
  const on = (["owner", "keyword", "point", "risk"] as const).filter((key) => query[key] !== undefined);
  if (on.length === 0) return "";
  return html`<ul class="filters" aria-label="Filters">${on.map(
    (key) =>
      html`<li>${key}: <strong>${query[key]}</strong> <a href="${browseHref({ ...query, [key]: undefined, page: 1 })}" aria-label="Remove the ${key} filter">remove</a></li>`,
  )}</ul>`;
}

function cardList(cards: readonly ListingCard[], now: Date): SafeHtml {
  return html`<ul class="cards">${cards.map((card) => cardItem(card, now))}</ul>`;
}

function cardItem({ hit, facts }: ListingCard, now: Date): SafeHtml {
  return html`<li class="card">
<h3><a href="${packageHref(hit.name)}">${hit.name}</a> <span class="version">${hit.version}</span></h3>
${hit.description === "" ? "" : html`<p>${hit.description}</p>`}
<p class="meta">${counted(hit.downloads, "download", "downloads")}${
    facts ? html` · updated ${dateTime(facts.lastPublishedAt, now)}` : ""
  }${
    hit.keywords.length > 0
      ? html` · ${hit.keywords.map((keyword, i) => html`${i > 0 ? ", " : ""}<a href="${browseHref({ keyword })}">${keyword}</a>`)}`
      : ""
  }</p>
${facts ? capabilityBadges(facts.capabilities) : ""}
</li>`;
}

function pagination(query: BrowseQuery, listing: Listing): SafeHtml | string {
  if (listing.pages <= 1 && listing.page === 1) return "";
  const previous = listing.page > 1 ? Math.min(listing.page - 1, listing.pages) : undefined;
  const next = listing.page < listing.pages ? listing.page + 1 : undefined;
  return html`<nav class="pagination" aria-label="Pages">
${previous ? html`<a href="${browseHref({ ...query, page: previous })}" rel="prev">Previous page</a>` : html`<span></span>`}
<span>Page ${listing.page} of ${listing.pages}</span>
${next ? html`<a href="${browseHref({ ...query, page: next })}" rel="next">Next page</a>` : html`<span></span>`}
</nav>`;
}
