import { SizedLru } from "../data/sized-lru.js";
import type { VersionRecord } from "../store.js";
import type { SafeHtml } from "./html.js";
import { renderReadme } from "./readme.js";

/** A version's readme as page HTML. */
export type ReadmeRenderer = (version: VersionRecord) => SafeHtml;

/**
 * Rendering a large readme costs milliseconds, and a version's readme never changes: each is
 * rendered once and kept (within `budgetBytes`), by the integrity of the tarball it came from.
 */
export function cachedReadmes(budgetBytes: number): ReadmeRenderer {
  const kept = new SizedLru<string, SafeHtml>(budgetBytes, (rendered) => rendered.markup.length * 2);
  return (version) => {
    const found = kept.get(version.integrity);
    if (found) return found;
    const rendered = renderReadme(version.readme ?? "");
    kept.set(version.integrity, rendered);
    return rendered;
  };
}
