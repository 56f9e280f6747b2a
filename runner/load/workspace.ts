import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describeIssues, errorText, type LoadProblem, RunnerError } from "../../core/errors.js";
import { type HookDefinition, hookDefinitionSchema } from "../../core/hook.js";
import { importModule } from "../../core/import-module.js";

export const hookFileExtensions = [".ts", ".mts", ".mjs", ".js"];

export interface LoadedHookFile {
  file: string;
  definition: HookDefinition;
}

/**
 * Loads `.hookyard/hooks/*.{ts,mts,mjs,js}` in name order. Each file is bundled by esbuild (so
 * TypeScript needs no build step and `import { defineHook } from "hookyard"` works without hookyard
 * installed in the project) and imported from `.hookyard/cache/hooks/`. The bundle is kept there
 * beside `<file>.json`, which keeps every file it was made from, as it was: while none of them
 * changed, the bundle is imported as it is and esbuild is not even loaded. A file that fails is
 * reported by name and skipped; the others still load.
 */
/** The hook files of `.hookyard/hooks`, in name order: none when it does not exist. */
export async function hookFileNames(dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names
      .filter((n) => hookFileExtensions.some((ext) => n.endsWith(ext)) && !n.endsWith(".d.ts"))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new RunnerError("RUN_ERR_HOOK_LOAD", `${dir} could not be read: ${errorText(error)}`, {
      cause: error,
    });
  }
}

export async function loadWorkspaceHooks(
  root: string,
): Promise<{ hooks: LoadedHookFile[]; problems: LoadProblem[] }> {
  const dir = join(root, ".hookyard", "hooks");
  const names = await hookFileNames(dir);
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
  const cacheDir = join(root, ".hookyard", "cache", "hooks");
  const entryFile = join(cacheDir, `${basename(file)}.json`);
  let cached = await cachedBundle(entryFile, file);
  if (cached === undefined) {
    // Only on a miss: esbuild is the heaviest thing a load could import.
    const { bundleHookWithInputs } = await import("./bundle.js");
    // Paths in the bundle relative to the root, so it is the same bundle from whatever folder hookyard runs.
    const { code, inputs } = await bundleHookWithInputs(file, "trusted", {
      sourcemap: true,
      workingDir: root,
    });
    const { createHash } = process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
    const hash = createHash("sha256").update(code).digest("hex").slice(0, 16);
    cached = join(cacheDir, `${basename(file)}.${hash}.mjs`);
    await mkdir(cacheDir, { recursive: true });
    await writeAtomic(cached, code);
    const entry: CacheEntry = {
      format: cacheFormat,
      source: file,
      bundle: basename(cached),
      inputs: await Promise.all(
        inputs.map(async (path) => ({ path, content: (await readFile(path)).toString("base64") })),
      ),
    };
    await writeAtomic(entryFile, `${JSON.stringify(entry, null, 2)}\n`);
    await removeStale(cacheDir, cached);
  }
  let module: { default?: unknown };
  try {
    module = (await importModule(pathToFileURL(cached).href)) as { default?: unknown };
  } catch (error) {
    // Errors name the bundle in the cache; the user knows the hook file.
    throw new RunnerError("RUN_ERR_HOOK_LOAD", errorText(error).replaceAll(cached, file), { cause: error });
  }
  if (module.default === undefined) {
    throw new RunnerError(
      "RUN_ERR_HOOK_INVALID",
      "it has no default export: a hook file ends with `export default defineHook({ name, on: { <point>(ctx) { … } } })`",
    );
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

/** Bump when what a bundle holds changes for the same inputs (the shim, esbuild's options). */
const cacheFormat = 2;

/** `.hookyard/cache/hooks/<file>.json`: the bundle of a hook file, and what it was made from. */
interface CacheEntry {
  format: number;
  source: string;
  /** The bundle's file name, beside this entry. */
  bundle: string;
  /**
   * Each file's bytes (base64), compared whole on every load: an exact check that needs no hash,
   * so an event answered in the exec process does not load node:crypto (about 7 ms).
   */
  inputs: Array<{ path: string; content: string }>;
}

/** The cached bundle of `file` if every input it was made from is unchanged, else undefined. */
async function cachedBundle(entryFile: string, file: string): Promise<string | undefined> {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(await readFile(entryFile, "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
  if (
    entry?.format !== cacheFormat ||
    entry.source !== file ||
    typeof entry.bundle !== "string" ||
    !/^[^/]+\.[0-9a-f]{16}\.mjs$/.test(entry.bundle) ||
    !Array.isArray(entry.inputs) ||
    !entry.inputs.some((input) => input?.path === file)
  )
    return undefined;
  for (const input of entry.inputs) {
    if (typeof input?.path !== "string" || typeof input.content !== "string") return undefined;
    const now = await readFile(input.path).catch(() => undefined);
    if (!now?.equals(Buffer.from(input.content, "base64"))) return undefined;
  }
  const bundle = join(entryFile, "..", entry.bundle);
  return (await stat(bundle).catch(() => undefined))?.isFile() ? bundle : undefined;
}

/** Another hookyard process may be reading the same cache: a file is there whole or not at all. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text);
  await rename(temp, path);
}
