/**
 * The synthetic packages both registries serve: hook packages with names, descriptions and
 * keywords drawn from small word lists by a seeded generator, so every run (and both peers)
 * sees the same names, the same documents and the same tarball bytes.
 */

const words = (text: string) => text.trim().split(/\s+/);
const verbs = words(`
  audit block guard redact lint trace limit scan notify cache
  review sign verify format filter track rewrite inject check watch
`);
const nouns = words(`
  secrets commands prompts files tokens paths urls diffs tests shell
  network costs logs branches imports licenses emails keys budgets errors
`);
const topics = words(`
  security privacy compliance cost quality testing git shell
  audit safety style docs ci review logging metrics
`);
const tools = words("bash write_file read_file list_dir");
const events = words("tool_before tool_after turn_before llm_after");
const places = ["before the model sees them", "in tool results", "at session start", "after each turn"];

export interface CorpusPackage {
  name: string;
  description: string;
  keywords: string[];
  /** Oldest first; the last is `latest`. */
  versions: string[];
  event: string;
  tool: string;
}

/** mulberry32: tiny, seedable, good enough to spread names and queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)] as T;
}

export function corpusPackages(count: number, versionsPerPackage: number): CorpusPackage[] {
  const next = random(20_251_130);
  return Array.from({ length: count }, (_, i) => {
    const verb = pick(next, verbs);
    const noun = pick(next, nouns);
    const tool = pick(next, tools);
    const keywords = [...new Set([pick(next, topics), pick(next, topics), verb, noun])];
    return {
      // The index keeps names unique; the words make them searchable.
      name: `${verb}-${noun}-${i.toString(36).padStart(3, "0")}`,
      description: `${capitalise(verb)} ${noun} in ${tool} calls ${pick(next, places)}, for ${keywords[0]} minded teams`,
      keywords,
      versions: Array.from({ length: versionsPerPackage }, (_, v) => `1.${v}.0`),
      event: pick(next, events),
      tool,
    };
  });
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The package.json inside the tarball: npm fields plus the `hookyard` field (DESIGN §6). */
export function manifestOf(pkg: CorpusPackage, version: string): Record<string, unknown> {
  return {
    name: pkg.name,
    version,
    description: pkg.description,
    license: "MIT",
    keywords: pkg.keywords,
    repository: { type: "git", url: `https://example.invalid/hooks/${pkg.name}.git` },
    hookyard: {
      main: "dist/hook.js",
      events: [pkg.event],
      priority: 50,
      matcher: { tool: `^${pkg.tool}$` },
      capabilities: { env: ["HOME"] },
      effects: ["block", "notice"],
    },
  };
}

export interface CorpusFile {
  path: string;
  data: string;
}

/** The files of one version: manifest, a bundled hook of a couple of KB, and a readme. */
export function filesOf(pkg: CorpusPackage, version: string): CorpusFile[] {
  const rules = Array.from(
    { length: 24 },
    (_, i) =>
      `  { pattern: /${pkg.keywords[i % pkg.keywords.length]}-${i}-${version}/i, reason: "rule ${i}" },`,
  );
  const hook = [
    `// ${pkg.name}@${version}: ${pkg.description}`,
    "const rules = [",
    ...rules,
    "];",
    "export default {",
    `  name: ${JSON.stringify(pkg.name)},`,
    "  on: {",
    `    ${pkg.event}(ctx) {`,
    "      const text = JSON.stringify(ctx);",
    "      const hit = rules.find((rule) => rule.pattern.test(text));",
    "      return hit ? { block: hit.reason } : undefined;",
    "    },",
    "  },",
    "};",
    "",
  ].join("\n");
  const readme = `# ${pkg.name}\n\n${pkg.description}.\n\nInstall: \`hookyard install ${pkg.name}@${version}\`\n`;
  return [
    { path: "package.json", data: `${JSON.stringify(manifestOf(pkg, version), null, 2)}\n` },
    { path: "dist/hook.js", data: hook },
    { path: "README.md", data: readme },
  ];
}

/**
 * A mix of what people search for: a whole package name, one word from names and descriptions,
 * and two words together. Both registries get the same list.
 */
export function searchQueries(packages: readonly CorpusPackage[], count: number): string[] {
  const next = random(4_873);
  const queries: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    if (kind === 0) queries.push(pick(next, packages).name);
    else if (kind === 1) queries.push(pick(next, next() < 0.5 ? verbs : nouns));
    else queries.push(`${pick(next, verbs)} ${pick(next, nouns)}`);
  }
  return queries;
}
