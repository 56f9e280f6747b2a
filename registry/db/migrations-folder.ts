import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * registry/migrations in the hookyard package. The SQL files are not compiled, so from dist/ (an
 * installed hookyard) and from source (vitest) alike they are found by walking up to the package
 * root, which ships the folder (package.json "files").
 */
export function migrationsFolder(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "registry", "migrations");
    if (existsSync(join(candidate, "meta", "_journal.json"))) {
      cached = candidate;
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("cannot find registry/migrations above the registry's own files");
    dir = parent;
  }
}
