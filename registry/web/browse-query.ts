import * as z from "zod";
import { type Point, points } from "../../core/events.js";
import type { Risk } from "../../sandbox/capabilities.js";
import { maxOffset } from "../routes/schemas.js";

/** Packages per page of a listing. */
export const pageSize = 20;
/** The API's offset cap, so a page past it is refused the same way. */
export const maxPage = Math.floor(maxOffset / pageSize) + 1;

export const sorts = ["relevance", "downloads", "updated", "name"] as const;
export type Sort = (typeof sorts)[number];
export const risks: readonly Risk[] = ["low", "medium", "high"];

/** What a listing shows, as the page's address says it: a link reproduces the view. */
export interface BrowseQuery {
  q: string;
  page: number;
  /** relevance only with words to match; without, downloads is the default. */
  sort: Sort;
  /** Only packages whose overall risk is this. */
  risk?: Risk;
  /** Only packages whose listed version runs at this point. */
  point?: Point;
  /** Only packages this owner owns. */
  owner?: string;
  /** Only packages with this keyword. */
  keyword?: string;
}

// A form's "any" choice sends the field empty: the same as leaving it out.
const unlessEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const oneOf = <T extends string>(values: readonly T[], what: string) =>
  unlessEmpty(z.enum(values as [T, ...T[]], `${what} must be one of ${values.join(", ")}.`));

const text = (what: string, max: number) =>
  unlessEmpty(z.string(`Give one ${what}.`).max(max, `The ${what} is at most ${max} characters.`));

const schema = z
  .object({
    q: z
      .string("Give one search text (q).")
      .max(256, "The search text is at most 256 characters.")
      .default(""),
    page: z.coerce
      .number("The page must be a number.")
      .int("The page must be a whole number.")
      .min(1, "Pages start at 1.")
      .max(maxPage, `Results stop at page ${maxPage}: search with more words.`)
      .default(1),
    sort: oneOf(sorts, "The sort order (sort)"),
    risk: oneOf(risks, "The risk level (risk)"),
    point: oneOf(points, "The hook point (point)"),
    owner: text("owner name (owner)", 214),
    keyword: text("keyword", 214),
  })
  .transform(({ sort, ...query }): BrowseQuery => {
    const words = query.q.trim() !== "";
    return {
      ...query,
      sort:
        sort === undefined || (sort === "relevance" && !words) ? (words ? "relevance" : "downloads") : sort,
    };
  });

/** The query string of GET / as a BrowseQuery, or the first problem in words. */
export function parseBrowseQuery(query: unknown): BrowseQuery | string {
  const parsed = schema.safeParse(query);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? "The query is not valid.");
}

/** Whether the query narrows the catalogue (words or a filter): the front page shows otherwise. */
export function isFiltered(query: BrowseQuery): boolean {
  return (
    query.q.trim() !== "" ||
    query.risk !== undefined ||
    query.point !== undefined ||
    query.owner !== undefined ||
    query.keyword !== undefined
  );
}

/** The address of a view: defaults left out, so equal views have equal links. */
export function browseHref(query: Partial<BrowseQuery>): string {
  const params = new URLSearchParams();
  const q = query.q ?? "";
  if (q !== "") params.set("q", q);
  const defaultSort = q.trim() === "" ? "downloads" : "relevance";
  if (query.sort !== undefined && query.sort !== defaultSort) params.set("sort", query.sort);
  for (const key of ["risk", "point", "owner", "keyword"] as const) {
    const value = query[key];
    if (value !== undefined) params.set(key, value);
  }
  if (query.page !== undefined && query.page !== 1) params.set("page", String(query.page));
  const search = params.toString();
  return search === "" ? "/" : `/?${search}`;
}
