import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type * as z from "zod";
import { describeIssues, errorText, RunnerError } from "../core/errors.js";
import { type CtxOf, ctxSchema, type Point } from "../core/events.js";
import type { HookSettings } from "../core/hook.js";
import { hookManifestSchema } from "../package/manifest.js";
import { parseGrants } from "../sandbox/capabilities.js";
import type { SandboxLimits } from "../sandbox/index.js";
import { Dispatcher } from "./chain/dispatch.js";
import type { ChainOutcome } from "./chain/outcome.js";
import { CommunitySandbox } from "./community-sandbox.js";
import { sandboxHook } from "./engines/sandbox.js";
import { bundleHook } from "./load/bundle.js";
import type { Logger } from "./logger.js";
import { StateStore } from "./state.js";
import { ctxDefaults } from "./testing-defaults.js";
import { trustedApi } from "./trusted-api.js";

export interface SandboxedHookOptions {
  /** The hook's name in outcomes and logs; default: the nearest package.json's name, else the file's name. */
  name?: string;
  /** The workspace root the hook's grants are relative to (default: the current directory). */
  root?: string;
  /** Grant strings, as a user would give them: `fs.read:docs`, `net:api.example.com:443`, `rewrite`. */
  grants?: readonly string[];
  /** The hook's `api.config`, as `hooks.<name>.config` in hookyard.json would give it. */
  config?: Record<string, unknown>;
  /** Priority, matcher, onError, mode, timeoutMs; default: the `hookyard` field of the nearest package.json. */
  settings?: HookSettings;
  /** "process" (the default, as users run community hooks) or "inline". */
  isolation?: "process" | "inline";
  limits?: Partial<SandboxLimits>;
  /** Name → addresses, consulted before DNS by net grants: point a granted name at a local test server. */
  hosts?: Record<string, string[]>;
}

export interface SandboxedHook {
  /**
   * Runs the hook at `point` as the runner would. Fields of the point's ctx that are left out get
   * empty, neutral defaults (`sessionId`, a `bash` call with no args, an empty prompt or result…;
   * `testing-defaults.ts`), so a test names only what its hook reads.
   */
  run<P extends Point>(point: P, ctx: Partial<CtxOf<P>>): Promise<ChainOutcome<CtxOf<P>>>;
  /** What the hook logged, and the runner's warnings and errors about it, in order. */
  readonly logs: string[];
  readonly warnings: string[];
  readonly errors: string[];
  /** The bundle that runs in the isolate. */
  readonly code: string;
  close(): Promise<void>;
}

/**
 * Bundles a hook file as `hookyard pack` would and runs it in the real sandbox with the given
 * grants: for hook authors' tests, and hookyard's own.
 */
export async function sandboxedHook(
  file: string,
  options: SandboxedHookOptions = {},
): Promise<SandboxedHook> {
  const root = resolve(options.root ?? process.cwd());
  // The manifest first: esbuild reads the same package.json, and would report a broken one without naming it.
  const manifest = await nearestManifest(dirname(resolve(file)));
  const code = await bundleHook(resolve(file), "sandbox");
  const bytes = Buffer.from(code);
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  const settings = options.settings ?? manifest.settings;
  const name = options.name ?? manifest.name ?? basename(file).replace(/\.[^.]+$/, "");
  const grants = parseGrants(options.grants ?? []);
  const logs: string[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: Logger = {
    info: (message) => logs.push(message),
    warn: (message) => warnings.push(message),
    error: (message) => errors.push(message),
  };
  const state = new StateStore(join(root, ".hookyard", "state"));
  const sandbox = new CommunitySandbox({
    root,
    logger,
    state,
    ...(options.isolation ? { isolation: options.isolation } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.hosts ? { hosts: options.hosts } : {}),
  });
  return {
    logs,
    warnings,
    errors,
    code,
    async run(point, partial) {
      const ctx = withDefaults(point, partial, root);
      const hook = sandboxHook(
        {
          engine: "sandbox",
          name,
          source: file,
          code: bytes,
          integrity,
          events: [point],
          settings,
          grants,
          config: options.config ?? {},
        },
        { root, origin: "community", sandbox },
      );
      const dispatcher = new Dispatcher([hook], {
        logger,
        apiFor: (r) => trustedApi({ hook: r.name, root, state: state.forHook(r.name), logger }),
      });
      const outcome = await dispatcher.dispatch(point, ctx);
      await dispatcher.drain();
      return outcome;
    },
    async close() {
      await sandbox.close();
      await state.flush();
    },
  };
}

/** Fills in the fields left out on the caller's own object, so a rewrite shows in it as in the agent. */
function withDefaults<P extends Point>(point: P, partial: Partial<CtxOf<P>>, root: string): CtxOf<P> {
  const ctx = partial as Record<string, unknown>;
  for (const [field, value] of Object.entries(ctxDefaults(point, root))) ctx[field] ??= value;
  const parsed = (ctxSchema(point) as z.ZodType).safeParse(ctx);
  if (!parsed.success) {
    throw new RunnerError("RUN_ERR_BAD_CTX", `ctx for ${point} is invalid: ${describeIssues(parsed.error)}`);
  }
  return ctx as CtxOf<P>;
}

/** The name and settings (the `hookyard` field) of the nearest package.json above the hook file that has one. */
async function nearestManifest(dir: string): Promise<{ name?: string; settings: HookSettings }> {
  for (let at = dir; ; at = dirname(at)) {
    const text = await readFile(join(at, "package.json"), "utf8").catch(() => undefined);
    if (text !== undefined) {
      let json: { name?: unknown; hookyard?: unknown };
      try {
        json = JSON.parse(text) as typeof json;
      } catch (error) {
        throw new RunnerError(
          "RUN_ERR_HOOK_INVALID",
          `${join(at, "package.json")} is not valid JSON: ${errorText(error)}`,
        );
      }
      const field = json.hookyard;
      if (field === undefined) return { settings: {} };
      const parsed = hookManifestSchema.safeParse(field);
      if (!parsed.success) {
        throw new RunnerError(
          "RUN_ERR_HOOK_INVALID",
          `${join(at, "package.json")}: the hookyard field is invalid: ${describeIssues(parsed.error)}`,
        );
      }
      const { priority, matcher, onError, mode, timeoutMs } = parsed.data;
      const settings = Object.fromEntries(
        Object.entries({ priority, matcher, onError, mode, timeoutMs }).filter(([, v]) => v !== undefined),
      );
      return { ...(typeof json.name === "string" ? { name: json.name } : {}), settings };
    }
    if (dirname(at) === at) return { settings: {} };
  }
}
