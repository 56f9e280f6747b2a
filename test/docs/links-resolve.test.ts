import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const notOurs = new Set(["node_modules", "dist", ".git", "test-artifacts"]);

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (notOurs.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

/** Markdown as a reader clicks it: code blocks and code spans hold examples, not links. */
function prose(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .replace(/`[^`\n]*`/g, "");
}

/** The anchors a page's headings get where the docs are read (GitHub): lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of readFileSync(file, "utf8")
    .replace(/```[\s\S]*?```/g, "")
    .matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = (heading as string)
      .trim()
      .toLowerCase()
      .replace(/<[^>]+>/g, "")
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What is wrong with a page's relative links: a file that does not exist, a heading a page does not have. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const [, link, anchor] of prose(page).matchAll(/\]\(([^)\s#]*)(?:#([^)\s]+))?\)/g)) {
    if (/^[a-z]+:/i.test(link as string) || (link as string).startsWith("/")) continue;
    const target = link ? resolve(dirname(page), link as string) : page;
    const where = `${relative(repoRoot, page)}: (${link}${anchor ? `#${anchor}` : ""})`;
    if (!existsSync(target)) broken.push(`${where} no such file`);
    else if (anchor && target.endsWith(".md") && !anchorsOf(target).has(anchor))
      broken.push(`${where} no such heading`);
  }
  return broken;
}

/** Named by the code but not ours: the page `hookyard demo` writes into its own workspace. */
const workspacePages = new Set(["docs/conventions.md"]);

describe("the docs' links", () => {
  it("every relative link in a markdown file names a file that exists, and a heading that exists", () => {
    const pages = filesUnder(repoRoot, (name) => name.endsWith(".md"));
    expect(pages.length).toBeGreaterThan(50);
    expect(pages.flatMap(brokenLinks)).toEqual([]);
  });

  it("every docs/… page the code names (an error's remedy, a notice) exists", () => {
    const sources = filesUnder(repoRoot, (name) => /\.(ts|js|mjs)$/.test(name)).filter(
      (file) => !/^(test|sample-hooks)\//.test(relative(repoRoot, file)),
    );
    const missing: string[] = [];
    let named = 0;
    for (const file of sources) {
      for (const [, page] of readFileSync(file, "utf8").matchAll(/\b(docs\/[\w/-]+\.md)/g)) {
        if (workspacePages.has(page as string)) continue;
        named++;
        if (!existsSync(join(repoRoot, page as string))) missing.push(`${relative(repoRoot, file)}: ${page}`);
      }
    }
    expect(named).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });

  it("a link to a moved page and to a heading that is gone are both found", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookyard-links-"));
    const page = join(dir, "page.md");
    await writeFile(join(dir, "other.md"), "# Other\n\n## Kept heading\n");
    await writeFile(
      page,
      "[fine](other.md#kept-heading) [moved](./gone.md) [renamed](other.md#old-heading)\n",
    );
    expect(brokenLinks(page).map((line) => line.replace(/^.*: /, ""))).toEqual([
      "(./gone.md) no such file",
      "(other.md#old-heading) no such heading",
    ]);
  });
});
