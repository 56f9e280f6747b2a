import { capabilityBadges, counted, dateTime } from "./fragments.js";
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";
import type { Listing, ListingCard } from "./listings.js";
import { packageHref, searchHref } from "./paths.js";

/** GET / without a query: what was published lately, then every package by downloads. */
export function frontPage(recent: readonly ListingCard[], popular: Listing): SafeHtml {
  const main = html`<h1>Hooks for AI agents</h1>
<p class="lead">Find a hook, see what it could touch, then install it in a sandbox.</p>
${
  popular.page === 1 && recent.length > 0
    ? html`<section aria-labelledby="recent-heading">
<h2 id="recent-heading">Recently published</h2>
${cardList(recent)}
</section>`
    : ""
}
<section aria-labelledby="popular-heading">
<h2 id="popular-heading">Popular</h2>
${popular.total === 0 ? html`<p>Nothing has been published to this registry yet.</p>` : cardList(popular.cards)}
${pagination("", popular)}
</section>`;
  return layout({ title: popular.page === 1 ? "Hooks" : `Hooks, page ${popular.page}`, main });
}

/** GET /?q=: one page of search results. */
export function resultsPage(q: string, results: Listing): SafeHtml {
  const main = html`<h1>Search results</h1>
<section aria-labelledby="results-heading">
<h2 id="results-heading">${counted(results.total, "hook matches", "hooks match")} “${q}”</h2>
${results.cards.length === 0 ? emptyResults(results) : cardList(results.cards)}
${pagination(q, results)}
</section>`;
  return layout({ title: `${q} — search`, query: q, main });
}

function emptyResults(results: Listing): SafeHtml {
  return results.total === 0
    ? html`<p>Try fewer or shorter words: every word must match the start of a word in a name, description or keyword.</p>`
    : html`<p>There are only ${results.pages} pages of results.</p>`;
}

function cardList(cards: readonly ListingCard[]): SafeHtml {
  return html`<ul class="cards">${cards.map(card)}</ul>`;
}

function card({ hit, facts }: ListingCard): SafeHtml {
  return html`<li class="card">
<h3><a href="${packageHref(hit.name)}">${hit.name}</a> <span class="version">${hit.version}</span></h3>
${hit.description === "" ? "" : html`<p>${hit.description}</p>`}
<p class="meta">${counted(hit.downloads, "download", "downloads")}${
    facts ? html` · last published ${dateTime(facts.lastPublishedAt)}` : ""
  }</p>
${facts ? capabilityBadges(facts.capabilities) : ""}
</li>`;
}

function pagination(q: string, listing: Listing): SafeHtml | string {
  if (listing.pages <= 1 && listing.page === 1) return "";
  const previous = listing.page > 1 ? Math.min(listing.page - 1, listing.pages) : undefined;
  const next = listing.page < listing.pages ? listing.page + 1 : undefined;
  return html`<nav class="pagination" aria-label="Pages">
${previous ? html`<a href="${searchHref(q, previous)}" rel="prev">Previous page</a>` : html`<span></span>`}
<span>Page ${listing.page} of ${listing.pages}</span>
${next ? html`<a href="${searchHref(q, next)}" rel="next">Next page</a>` : html`<span></span>`}
</nav>`;
}
