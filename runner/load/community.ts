import { readFile, stat } from "node:fs/promises";
import { join, posix } from "node:path";
import {
  describeIssues,
  errorText,
  type LoadProblem,
  RunnerError,
  type RunnerErrorCode,
} from "../../core/errors.js";
import type { Point } from "../../core/events.js";
import { type HookDefinition, type HookSettings, hookDefinitionSchema } from "../../core/hook.js";
import { importModule } from "../../core/import-module.js";
import { computeIntegrity } from "../../package/integrity.js";
import { type PackageManifest, packageManifestSchema, packageNameSchema } from "../../package/manifest.js";
import { parseGrants } from "../../sandbox/capabilities.js";
import { type LockEntry, lockFileName, readLockfile, storePath } from "../../workspace/lockfile.js";
import type { SandboxHookConfig } from "../engines/sandbox.js";

/** A sandboxed community hook: the sandbox engine's config without `engine`, and the version when known. */
export type CommunityHookConfig = Omit<SandboxHookConfig, "engine"> & { version?: string };

/** A community hook installed with `--trust`: it runs in-process, from the very bytes that were verified. */
export interface TrustedCommunityHook {
  definition: HookDefinition;
  /** The bundle's path in the store. */
  source: string;
  version: string;
}

export interface CommunityHooks {
  sandboxed: CommunityHookConfig[];
  trusted: TrustedCommunityHook[];
  /** Packages that were refused, each by name; the others still load. */
  problems: LoadProblem[];
}

const remedy =
  "`hookyard install` restores the store from the registry; `hookyard verify` checks every installed package";
const installFix = "run `hookyard install`";

/** Package names may be scoped (`@scope/name`), which a workspace hook's name may not. */
const trustedDefinitionSchema = hookDefinitionSchema.extend({ name: packageNameSchema });

/**
 * The community hooks hookyard.lock pins, from `.hookyard/store/`. Each package's package.json and
 * bundle are read once and hashed; only bytes that match the lock are used, and the bundle buffer
 * that was hashed is the one that runs (DESIGN §7). A package that does not match is refused alone.
 * An invalid lockfile refuses them all, as one problem.
 */
export async function loadCommunityHooks(root: string): Promise<CommunityHooks> {
  const hooks: CommunityHooks = { sandboxed: [], trusted: [], problems: [] };
  let lock: Awaited<ReturnType<typeof readLockfile>>;
  try {
    lock = await readLockfile(root);
  } catch (error) {
    if (!(error instanceof RunnerError)) throw error;
    hooks.problems.push({
      name: lockFileName,
      code: error.code,
      file: join(root, lockFileName),
      message: `${error.message}; no community hook was loaded (fix the file, or restore it from version control)`,
    });
    return hooks;
  }
  const loaded = await Promise.all(
    Object.entries(lock?.packages ?? {}).map(([name, entry]) => loadPackage(root, name, entry)),
  );
  for (const result of loaded) {
    if ("problem" in result) hooks.problems.push(result.problem);
    else if ("definition" in result) hooks.trusted.push(result);
    else hooks.sandboxed.push(result);
  }
  return hooks;
}

/** Why a package was refused, with the file at fault. */
class Refusal extends Error {
  constructor(
    readonly code: RunnerErrorCode,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

async function loadPackage(
  root: string,
  name: string,
  entry: LockEntry,
): Promise<CommunityHookConfig | TrustedCommunityHook | { problem: LoadProblem }> {
  const dir = storePath(root, entry.integrity);
  const source = join(dir, entry.main);
  // Known once the manifest verified: a package whose bundle then fails stands in at its own points.
  let points: readonly Point[] | undefined;
  try {
    const manifest = await verifiedManifest(dir, name, entry);
    // A background hook observes only: it never guarded anything, so it needs no stand-in.
    points = manifest.hookyard.mode === "background" ? [] : manifest.hookyard.events;
    const code = await verifiedFile(dir, entry.main, entry);
    const { events } = manifest.hookyard;
    const settings = manifestSettings(manifest);
    if (entry.trust === "trusted") {
      const definition = await importTrusted(code, source, name, events, settings);
      return { definition, source, version: entry.version };
    }
    return {
      name,
      version: entry.version,
      source,
      code,
      integrity: entry.integrity,
      events,
      settings,
      grants: parseGrants(entry.grants),
    };
  } catch (error) {
    const known = { fix: installFix, ...(points ? { points } : {}) };
    if (error instanceof Refusal) {
      return { problem: { name, code: error.code, file: error.file, message: error.message, ...known } };
    }
    return {
      problem: { name, code: "RUN_ERR_HOOK_LOAD", file: source, message: errorText(error), ...known },
    };
  }
}

async function verifiedManifest(dir: string, name: string, entry: LockEntry): Promise<PackageManifest> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new Refusal(
      "RUN_ERR_NOT_INSTALLED",
      dir,
      `${name}@${entry.version} is in hookyard.lock but not in the store (a fresh clone, before \`hookyard install\`); run \`hookyard install\` to fetch it`,
    );
  }
  const file = join(dir, "package.json");
  const bytes = await verifiedFile(dir, "package.json", entry);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new Refusal("RUN_ERR_HOOK_INVALID", file, `${file} is not valid JSON: ${errorText(error)}`);
  }
  const parsed = packageManifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new Refusal(
      "RUN_ERR_HOOK_INVALID",
      file,
      `${file} is not a valid hook package manifest: ${describeIssues(parsed.error)}`,
    );
  }
  const manifest = parsed.data;
  const differences = [
    manifest.name !== name && `its name is ${manifest.name}`,
    manifest.version !== entry.version && `its version is ${manifest.version}`,
    posix.normalize(manifest.hookyard.main) !== entry.main &&
      `its bundle is ${manifest.hookyard.main}, not ${entry.main}`,
  ].filter((difference) => typeof difference === "string");
  if (differences.length > 0) {
    throw new Refusal(
      "RUN_ERR_STORE_MISMATCH",
      file,
      `${file} does not match hookyard.lock's entry for ${name}@${entry.version}: ${differences.join(", ")}; ${remedy}`,
    );
  }
  return manifest;
}

/** The file's bytes, read once, after their hash was checked against the lock's. */
async function verifiedFile(dir: string, path: string, entry: LockEntry): Promise<Buffer> {
  const file = join(dir, path);
  const expected = entry.files[path];
  if (expected === undefined) {
    throw new Refusal(
      "RUN_ERR_LOCK_INVALID",
      file,
      `hookyard.lock lists no hash for ${path}, so ${file} cannot be checked; reinstall the package`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? `${file} is missing (hookyard.lock expects it with ${expected})`
        : `${file} could not be read: ${errorText(error)}`;
    throw new Refusal("RUN_ERR_STORE_MISMATCH", file, `${why}; ${remedy}`);
  }
  const found = computeIntegrity(bytes);
  if (found !== expected) {
    throw new Refusal(
      "RUN_ERR_STORE_MISMATCH",
      file,
      `${file} does not match hookyard.lock: expected ${expected} (from hookyard.lock), found ${found}; ${remedy}`,
    );
  }
  return bytes;
}

function manifestSettings(manifest: PackageManifest): HookSettings {
  const { priority, matcher, onError, mode, timeoutMs } = manifest.hookyard;
  const settings: HookSettings = { priority, matcher, onError, mode, timeoutMs };
  return Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  ) as HookSettings;
}

/**
 * Imports the verified bundle from memory (a data: URL), so what runs is the buffer that was
 * hashed, never a second read of the file. The package's manifest decides the name, the events
 * and the settings; the module gives only its handlers for those events.
 */
async function importTrusted(
  code: Buffer,
  source: string,
  name: string,
  events: readonly Point[],
  settings: HookSettings,
): Promise<HookDefinition> {
  let on: Record<string, unknown>;
  try {
    const module = (await importModule(`data:text/javascript;base64,${code.toString("base64")}`)) as {
      default?: { on?: Record<string, unknown> };
    };
    const handlers = module.default?.on;
    on = Object.fromEntries(events.map((point) => [point, handlers?.[point]]));
  } catch (error) {
    throw new Refusal("RUN_ERR_HOOK_LOAD", source, `${source} failed to load: ${errorText(error)}`);
  }
  const missing = events.filter((point) => typeof on[point] !== "function");
  if (missing.length > 0) {
    throw new Refusal(
      "RUN_ERR_HOOK_INVALID",
      source,
      `its package.json lists ${missing.join(", ")} in hookyard.events, but its default export has no handler for ${missing.length > 1 ? "them" : "it"} in \`on\``,
    );
  }
  const parsed = trustedDefinitionSchema.safeParse({ ...settings, name, on });
  if (!parsed.success) {
    throw new Refusal(
      "RUN_ERR_HOOK_INVALID",
      source,
      `it is not a valid hook definition: ${describeIssues(parsed.error)}`,
    );
  }
  return parsed.data as HookDefinition;
}
