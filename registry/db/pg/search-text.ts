/**
 * Text as the PostgreSQL search index holds it, split as sqlite's unicode61 tokenizer with
 * remove_diacritics splits it: lower case, accents dropped, every run of letters and digits a
 * word (so `redact-secrets` is found by `secrets`). The `simple` configuration then indexes the
 * words as they are, with no stemming or stop words, like FTS5.
 */
export function searchText(text: string): string {
  return (
    text
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(" ");
}

/** The terms of an FTS5 expression made by ../search-query.ts (`"term"* "other"*`), as index words. */
export function searchTerms(match: string): string[] {
  const terms = [...match.matchAll(/"([^"]*)"\*/g)].flatMap((found) => searchText(found[1] ?? "").split(" "));
  return [...new Set(terms.filter(Boolean))];
}

/**
 * The weighted tsvector of a search row, from three SQL parameters holding the searchText of the
 * name, the description and the keywords: name A, keywords B, description C (pg-store.ts ranks by
 * these weights). Shared by the store and `registry migrate`, which rebuilds the index.
 */
export function searchDocumentSql(name: string, description: string, keywords: string): string {
  return `setweight(to_tsvector('simple', ${name}), 'A') || setweight(to_tsvector('simple', ${description}), 'C')
           || setweight(to_tsvector('simple', ${keywords}), 'B')`;
}
