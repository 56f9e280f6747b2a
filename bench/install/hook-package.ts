import { createHash } from "node:crypto";
import { computeIntegrity } from "../../package/integrity.js";
import { packTarball } from "../../package/tarball/pack.js";
import type { CorpusPackage } from "../registry/corpus.js";
import type { PackedVersion } from "../registry/packed-corpus.js";

/**
 * The package both tools install: what `hookyard pack` makes of a real hook, a bundled ES module
 * of about 50 KB, its package.json with the `hookyard` field, and a README. The bundle is rule
 * tables and small functions built from word lists and hash-derived tokens, so it compresses
 * about as well as real bundled code does (a few times, not a hundred), and its bytes are the
 * same on every run.
 */

export const benchPackageName = "bench-install-hook";
export const benchPackageVersion = "1.0.0";
export const bundlePath = "dist/hook.js";
const bundleBytes = 50 * 1024;

const description = "Blocks shell commands and file writes that carry secrets, and notes risky paths";

/** The registry benches' package shape, so their publish calls work for this package too. */
const corpusEntry: CorpusPackage = {
  name: benchPackageName,
  description,
  keywords: ["security", "secrets", "shell", "guard"],
  versions: [benchPackageVersion],
  event: "tool_before",
  tool: "bash",
};

const manifest = {
  name: benchPackageName,
  version: benchPackageVersion,
  description,
  license: "MIT",
  keywords: corpusEntry.keywords,
  repository: { type: "git", url: `https://example.invalid/hooks/${benchPackageName}.git` },
  hookyard: {
    main: bundlePath,
    events: ["tool_before", "tool_after"],
    priority: 50,
    matcher: { tool: "^(bash|write_file)$" },
    capabilities: { fs: { read: ["docs"] }, env: ["HOME"] },
    effects: ["block", "notice"],
  },
};

const readme = [
  `# ${benchPackageName}`,
  "",
  `${description}.`,
  "",
  "## What it checks",
  "",
  "Before `bash` and `write_file` run, the arguments are matched against a few hundred rules for",
  "cloud keys, tokens, private keys and connection strings. A match blocks the call and tells the",
  "model which rule fired, so it can retry without the secret. After a call, paths under `docs/`",
  "that look generated are noted for the user.",
  "",
  "## Capabilities",
  "",
  "- `fs.read:docs`: reads the docs folder to learn which paths are generated.",
  "- `env:HOME`: expands `~` in paths the model writes.",
  "",
  "## Install",
  "",
  `    hookyard install ${benchPackageName} --grant fs.read:docs --grant env:HOME`,
  "",
].join("\n");

const words = `secret token key password credential private access session cookie bearer api client
  shell command path file write read branch commit diff patch remote origin upload export
  cloud bucket region account project tenant service webhook signing refresh oauth jwt
  ssh gpg pem cert vault store cache config env profile deploy release build stage`
  .trim()
  .split(/\s+/);

/** What the secrets the rules look for are spelled with. */
const charClasses = ["A-Za-z0-9", "A-Za-z0-9_-", "A-Za-z0-9+/=", "a-f0-9", "A-Z2-7", "A-Za-z0-9._~"];

/** A stream of bytes derived from the seed: sha256 in counter mode, the same on every machine. */
function byteStream(seed: string): () => number {
  let block = Buffer.alloc(0);
  let at = 0;
  let counter = 0;
  return () => {
    if (at >= block.length) {
      block = createHash("sha256").update(`${seed}:${counter++}`).digest();
      at = 0;
    }
    return block[at++] as number;
  };
}

function bundle(): string {
  const next = byteStream(`${benchPackageName}@${benchPackageVersion}`);
  const word = () => words[next() % words.length] as string;
  const hex = (length: number) => Array.from({ length }, () => (next() & 15).toString(16)).join("");
  const charClass = () => charClasses[next() % charClasses.length] as string;

  const parts = [
    `// ${benchPackageName}@${benchPackageVersion}: bundled by hookyard pack, do not edit`,
    'var __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });',
    "",
  ];
  let size = parts.join("\n").length;
  const groups: string[] = [];
  for (let group = 0; size < bundleBytes - 1_500; group++) {
    const name = `${word()}_${word()}_${group}`;
    const lines = [`const ${name}_rules = [`];
    for (let rule = 0; rule < 12; rule++) {
      const a = word();
      const b = word();
      lines.push(
        `  { id: "${hex(12)}", pattern: /${a}[_-]?${b}[_-]?${hex(4)}\\s*[:=]\\s*["']?[${charClass()}]{${16 + (next() % 48)},}/${next() & 1 ? "i" : ""}, ` +
          `reason: "${a} ${b} ${word()} in the ${word()} argument", weight: ${(next() / 255).toFixed(3)}, sample: "${hex(16)}" },`,
      );
    }
    lines.push(
      "];",
      `function ${name}(text) {`,
      `  for (const rule of ${name}_rules) if (rule.pattern.test(text)) return rule;`,
      "  return undefined;",
      "}",
      `__name(${name}, "${name}");`,
      "",
    );
    const text = lines.join("\n");
    size += text.length + 1;
    parts.push(text);
    groups.push(name);
  }
  parts.push(
    `const groups = [${groups.join(", ")}];`,
    "function firstHit(ctx) {",
    "  const text = JSON.stringify(ctx.args ?? ctx.result ?? {});",
    "  for (const group of groups) {",
    "    const hit = group(text);",
    "    if (hit && hit.weight > 0.2) return hit;",
    "  }",
    "  return undefined;",
    "}",
    "var hook_default = {",
    `  name: ${JSON.stringify(benchPackageName)},`,
    "  on: {",
    "    tool_before(ctx) {",
    "      const hit = firstHit(ctx);",
    '      return hit ? { block: hit.reason + " (rule " + hit.id + ")" } : undefined;',
    "    },",
    "    tool_after(ctx) {",
    "      const hit = firstHit(ctx);",
    '      return hit ? { notice: "a " + ctx.tool + " result matches rule " + hit.id } : undefined;',
    "    },",
    "  },",
    "};",
    "export { hook_default as default };",
    "",
  );
  return parts.join("\n");
}

export interface BenchPackage {
  packed: PackedVersion;
  /** The bundle's own SRI sha512: the store must hold exactly these bytes at `bundlePath`. */
  bundleIntegrity: string;
  bundleBytes: number;
  /** What the files weigh before packing. */
  unpackedBytes: number;
}

/** Packs the package once with hookyard's reproducible packer; both registries get these bytes. */
export async function packBenchPackage(): Promise<BenchPackage> {
  const code = bundle();
  const files = [
    { path: "package.json", data: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: bundlePath, data: code },
    { path: "README.md", data: readme },
  ];
  const tarball = await packTarball(files);
  return {
    packed: {
      pkg: corpusEntry,
      version: benchPackageVersion,
      manifest,
      readme,
      tarball,
      integrity: computeIntegrity(tarball),
      shasum: createHash("sha1").update(tarball).digest("hex"),
    },
    bundleIntegrity: computeIntegrity(Buffer.from(code)),
    bundleBytes: Buffer.byteLength(code),
    unpackedBytes: files.reduce((sum, file) => sum + Buffer.byteLength(file.data), 0),
  };
}
