import { ftsQuery } from "../db/search-query.js";
import { maxOffset } from "../routes/schemas.js";
import type { ListingFacts, RegistryStore, SearchHit } from "../store.js";

/** Packages per page of results. */
export const pageSize = 20;
/** The API's offset cap, so a page past it is refused the same way. */
export const maxPage = Math.floor(maxOffset / pageSize) + 1;
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

/** One page of search results for `q`, or of every package by downloads when `q` has no words. */
export async function searchListing(store: RegistryStore, q: string, page: number): Promise<Listing> {
  const found = await store.search(ftsQuery(q), pageSize, (page - 1) * pageSize);
  return {
    total: found.total,
    page,
    pages: Math.max(1, Math.ceil(found.total / pageSize)),
    cards: await withFacts(store, found.results),
  };
}

export async function recentCards(store: RegistryStore): Promise<ListingCard[]> {
  return withFacts(store, await store.recentlyPublished(recentCount));
}

async function withFacts(store: RegistryStore, hits: readonly SearchHit[]): Promise<ListingCard[]> {
  const facts = await store.listingFacts(hits.map((hit) => hit.name));
  return hits.map((hit) => ({ hit, facts: facts.get(hit.name) }));
}
