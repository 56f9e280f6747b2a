import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The files under registry/web/static that pages use, by their name there. */
export const assetNames = ["hookyard.css", "copy-button.js", "favicon.svg"] as const;
export type AssetName = (typeof assetNames)[number];

export interface StaticAsset {
  /** Where it is served: /static/<name with a hash of its bytes>, so it can be cached for good. */
  path: string;
  body: Buffer;
  contentType: string;
}

const contentTypes: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
};

let loaded: Map<AssetName, StaticAsset> | undefined;

/** The assets, read once. */
export function staticAssets(): ReadonlyMap<AssetName, StaticAsset> {
  if (loaded) return loaded;
  const folder = staticFolder();
  loaded = new Map(
    assetNames.map((name) => {
      const body = readFileSync(join(folder, name));
      const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
      const extension = extname(name);
      const path = `/static/${name.slice(0, -extension.length)}.${hash}${extension}`;
      return [name, { path, body, contentType: contentTypes[extension] ?? "application/octet-stream" }];
    }),
  );
  return loaded;
}

export function assetPath(name: AssetName): string {
  return (staticAssets().get(name) as StaticAsset).path;
}

/**
 * registry/web/static in the hookyard package. The files are not compiled, so from dist/ (an
 * installed hookyard) and from source (vitest) alike they are found by walking up to the package
 * root, which must ship the folder (package.json "files").
 */
function staticFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "registry", "web", "static");
    if (existsSync(join(candidate, assetNames[0]))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find registry/web/static above the registry's own files");
    dir = parent;
  }
}
