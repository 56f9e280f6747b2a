import { describeCapabilities } from "../../package/capability-wording.js";
import { ftsQuery } from "../db/search-query.js";
import type { ListingFacts, RegistryStore, SearchHit } from "../store.js";
import { type BrowseQuery, pageSize } from "./browse-query.js";

/** Packages under "recently published" on the front page. */
export const recentCount = 5;

/** A package as a listing shows it; `facts` is missing only if it changed between two reads. */
export interface ListingCard {
  hit: SearchHit;
  facts: ListingFacts | undefined;
}

export interface Listing {
  total: number;
  /** 1-based. */
  page: number;
  /** At least 1. */
  pages: number;
  cards: ListingCard[];
}

/**
 * One page of the view `query` names. Risk is worded in JavaScript (describeCapabilities, the
 * CLI's words), not stored: a risk filter reads every package the other filters keep and pages
 * them here; any other view is paged by the store.
 */
export async function browseListing(store: RegistryStore, query: BrowseQuery): Promise<Listing> {
  const filter = {
    match: ftsQuery(query.q),
    sort: query.sort,
    owner: query.owner,
    keyword: query.keyword,
    point: query.point,
  };
  const offset = (query.page - 1) * pageSize;
  let total: number;
  let cards: ListingCard[];
  if (query.risk === undefined) {
    const found = await store.browse(filter, pageSize, offset);
    total = found.total;
    cards = found.results;
  } else {
    const risk = query.risk;
    const kept = (await store.browse(filter, undefined, 0)).results.filter(
      ({ facts }) => describeCapabilities(facts.capabilities).risk === risk,
    );
    total = kept.length;
    cards = kept.slice(offset, offset + pageSize);
  }
  return { total, page: query.page, pages: Math.max(1, Math.ceil(total / pageSize)), cards };
}

export async function recentCards(store: RegistryStore): Promise<ListingCard[]> {
  const hits = await store.recentlyPublished(recentCount);
  const facts = await store.listingFacts(hits.map((hit) => hit.name));
  return hits.map((hit) => ({ hit, facts: facts.get(hit.name) }));
}
