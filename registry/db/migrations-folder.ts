import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const cached = new Map<string, string>();

/**
 * registry/migrations (sqlite) or registry/migrations-pg (PostgreSQL) in the hookyard package. The
 * SQL files are not compiled, so from dist/ (an installed hookyard) and from source (vitest) alike
 * they are found by walking up to the package root, which ships the folders (package.json "files").
 */
export function migrationsFolder(name: "migrations" | "migrations-pg" = "migrations"): string {
  const known = cached.get(name);
  if (known) return known;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "registry", name);
    if (existsSync(join(candidate, "meta", "_journal.json"))) {
      cached.set(name, candidate);
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find registry/${name} above the registry's own files`);
    dir = parent;
  }
}
