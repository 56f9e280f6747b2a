/**
 * Turns what a user typed into an FTS5 MATCH expression that cannot be a syntax error: each run
 * of letters and digits becomes a quoted prefix term ("guard"*), and everything else (quotes,
 * parentheses, `*`, `:`, `-`, column filters, NEAR, AND/OR/NOT as operators) is only a separator.
 * All terms must match. An empty result means "no terms": list every package.
 */
export function ftsQuery(text: string, maxTerms = 16): string {
  const terms = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(terms)]
    .slice(0, maxTerms)
    .map((term) => `"${term}"*`)
    .join(" ");
}
