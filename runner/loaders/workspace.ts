import { createHash } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleHook } from "../bundle.js";
import { describeIssues, errorText, type LoadProblem, RunnerError } from "../errors.js";
import { type HookDefinition, hookDefinitionSchema } from "../hook.js";

export const hookFileExtensions = [".ts", ".mts", ".mjs", ".js"];

export interface LoadedHookFile {
  file: string;
  definition: HookDefinition;
}

/**
 * Loads `.hookyard/hooks/*.{ts,mts,mjs,js}` in name order. Each file is bundled by esbuild (so
 * TypeScript needs no build step and `import { defineHook } from "hookyard"` works without hookyard
 * installed in the project) and imported from `.hookyard/cache/`. A file that fails is reported
 * by name and skipped; the others still load.
 */
export async function loadWorkspaceHooks(
  root: string,
): Promise<{ hooks: LoadedHookFile[]; problems: LoadProblem[] }> {
  const dir = join(root, ".hookyard", "hooks");
  let names: string[];
  try {
    names = (await readdir(dir)).filter(
      (n) => hookFileExtensions.some((ext) => n.endsWith(ext)) && !n.endsWith(".d.ts"),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { hooks: [], problems: [] };
    throw new RunnerError("RUN_ERR_HOOK_LOAD", `${dir} could not be read: ${errorText(error)}`, {
      cause: error,
    });
  }
  names.sort();
  const hooks: LoadedHookFile[] = [];
  const problems: LoadProblem[] = [];
  const byName = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    const stem = basename(name).replace(/\.[^.]+$/, "");
    try {
      const definition = await importHookFile(root, file);
      const previous = byName.get(definition.name);
      if (previous) {
        throw new RunnerError(
          "RUN_ERR_HOOK_INVALID",
          `hook name "${definition.name}" is already used by ${previous}`,
        );
      }
      byName.set(definition.name, file);
      hooks.push({ file, definition });
    } catch (error) {
      const code = error instanceof RunnerError ? error.code : "RUN_ERR_HOOK_LOAD";
      problems.push({ name: stem, code, file, message: errorText(error), fix: `fix ${file}` });
    }
  }
  return { hooks, problems };
}

async function importHookFile(root: string, file: string): Promise<HookDefinition> {
  const code = await bundleHook(file, "trusted", { sourcemap: true });
  const cacheDir = join(root, ".hookyard", "cache", "hooks");
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
  const cached = join(cacheDir, `${basename(file)}.${hash}.mjs`);
  await mkdir(cacheDir, { recursive: true });
  const temp = `${cached}.${process.pid}.tmp`;
  await writeFile(temp, code);
  await rename(temp, cached);
  await removeStale(cacheDir, cached);
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(cached).href)) as { default?: unknown };
  } catch (error) {
    // Errors name the bundle in the cache; the user knows the hook file.
    throw new RunnerError("RUN_ERR_HOOK_LOAD", errorText(error).replaceAll(cached, file), { cause: error });
  }
  const parsed = hookDefinitionSchema.safeParse(module.default);
  if (!parsed.success) {
    throw new RunnerError(
      "RUN_ERR_HOOK_INVALID",
      `its default export is not a valid hook definition: ${describeIssues(parsed.error)}`,
    );
  }
  // The parsed copy, not the export: a getter could answer differently once validated.
  return parsed.data as HookDefinition;
}

/** A bundle this old is no longer being imported by another hookyard process in the same workspace. */
const staleAfterMs = 60_000;

/** Earlier bundles of the same hook file: only the newest is ever imported again. */
async function removeStale(cacheDir: string, current: string): Promise<void> {
  const prefix = basename(current).replace(/[0-9a-f]{16}\.mjs$/, "");
  for (const name of await readdir(cacheDir)) {
    const path = join(cacheDir, name);
    if (
      path === current ||
      !name.startsWith(prefix) ||
      !/^[0-9a-f]{16}\.mjs$/.test(name.slice(prefix.length))
    )
      continue;
    const info = await stat(path).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > staleAfterMs) await rm(path, { force: true });
  }
}
