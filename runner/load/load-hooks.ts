import { join } from "node:path";
import { describeIssues, errorText, type LoadProblem, RunnerError } from "../../core/errors.js";
import { type CtxOf, ctxSchema, type Point, points } from "../../core/events.js";
import type { HookDefinition } from "../../core/hook.js";
import { formatGrant } from "../../sandbox/capabilities.js";
import { configFields } from "../../workspace/config-file.js";
import { configFileName, findWorkspaceRoot } from "../../workspace/root.js";
import { builtinHooks } from "../builtin/index.js";
import { Dispatcher } from "../chain/dispatch.js";
import { compileMatcher } from "../chain/matcher.js";
import type { ChainOutcome } from "../chain/outcome.js";
import type { CommunitySandboxOptions } from "../community-sandbox.js";
import { compileHook } from "../compile-hook.js";
import type { CompiledHook, Origin, Trust } from "../compiled-hook.js";
import { type Logger, stderrLogger } from "../logger.js";
import { findWorkspaceRules } from "../rules/workspace-rules.js";
import { StateStore, type StateWrite } from "../state.js";
import { trustedApi } from "../trusted-api.js";
import { brokenHook } from "./broken-hook.js";
import { type CommunityHookConfig, type CommunityHooks, loadCommunityHooks } from "./community.js";
import { type HookOverride, readWorkspaceConfig } from "./config.js";
import { notInstalledLine } from "./not-in-force.js";
import { loadWorkspaceHooks } from "./workspace.js";

export { findWorkspaceRoot } from "../../workspace/root.js";
export type { CommunityHookConfig } from "./community.js";

export interface LoadHooksOptions {
  /** Any directory inside the workspace; the root is the nearest one holding hookyard.json or .hookyard/. */
  cwd?: string;
  logger?: Logger;
  /** Validate each ctx against its point's schema before dispatch (default true). */
  validate?: boolean;
  backgroundLimit?: number;
  /**
   * Community hooks, verified by the caller (bytes hashed and compared with the lock): run sandboxed.
   * When given, hookyard.lock is not read; when absent, the hooks it pins are loaded from the store.
   */
  community?: readonly CommunityHookConfig[];
  /**
   * Start the sandbox process while loading, so the first event finds it up (default true). A
   * caller that only lists hooks passes false: the process then starts on the first dispatch, if any.
   */
  prestart?: boolean;
  /** How sandboxed hooks run: isolation mode, limits, a resolver for tests. */
  sandbox?: Omit<CommunitySandboxOptions, "root" | "logger" | "state">;
}

export interface ListedHook {
  name: string;
  origin: Origin;
  trust: Trust;
  engine: string;
  priority: number;
  mode: "sync" | "background";
  onError: "open" | "block";
  matcher: Record<string, string> | undefined;
  source: string;
  /** Community hooks from hookyard.lock: the installed version. */
  version?: string;
  /** Set when the hook could not load and fails closed here: what is wrong and the fix. */
  broken?: string;
  /** Sandboxed community hooks: what they were granted, as grant strings. */
  grants?: string[];
}

/** What `list` shows of a community hook beyond what its CompiledHook says. */
type Listing = Pick<ListedHook, "version" | "grants">;

export interface Hooks {
  readonly root: string;
  /** Runs the chain at `point`. `ctx` is changed in place by rewrites and is also `outcome.ctx`. */
  dispatch<P extends Point>(point: P, ctx: CtxOf<P>): Promise<ChainOutcome<CtxOf<P>>>;
  /** Every point's chain in execution order: synchronous hooks, then background ones. */
  list(): Array<{ point: Point; hooks: ListedHook[] }>;
  /**
   * Hook files and config entries that did not load, each by name. Each one that is a hook fails
   * closed at its blockable points (it is in `list()` as broken) unless hookyard.json gives it
   * `onError: "open"`.
   */
  readonly problems: readonly LoadProblem[];
  /** Sandboxed hooks quarantined this session after repeated isolate failures: they no longer run. */
  quarantined(): string[];
  /** Waits for background hooks and pending state writes. */
  drain(): Promise<void>;
  /** Calls `listener` after each hook's state write reaches disk, in write order (a run's record takes these as receipts). */
  onStateWrite(listener: (write: StateWrite) => void): () => void;
  close(): Promise<void>;
}

/**
 * Loads builtin hooks, workspace hook files, the hooks hookyard.json defines and the community hooks
 * hookyard.lock pins, applies per-name overrides, and returns a dispatcher. Registration order (for
 * priority ties) is builtin, then workspace, then community, each in name order; a workspace hook
 * (a file or a hookyard.json entry) of the same name replaces a builtin, and a community hook may
 * not take a name in use.
 */
export async function loadHooks(options: LoadHooksOptions = {}): Promise<Hooks> {
  const logger = options.logger ?? stderrLogger;
  const root = await findWorkspaceRoot(options.cwd ?? process.cwd());
  const config = await readWorkspaceConfig(root);
  const workspace = await loadWorkspaceHooks(root);
  const installed: CommunityHooks = options.community
    ? { sandboxed: [...options.community], trusted: [], problems: [] }
    : await loadCommunityHooks(root);
  const configFile = join(root, configFileName);
  const problems: LoadProblem[] = [];
  const origins = new Map<LoadProblem, Origin>();
  const skip = (problem: LoadProblem, origin: Origin = "workspace") => {
    problems.push(problem);
    origins.set(problem, origin);
  };
  for (const problem of [...config.problems, ...workspace.problems]) skip(problem);
  for (const problem of installed.problems) skip(problem, "community");
  // Rule files (.hookyard/rules/*.md, .claude/hookify.*.local.md): one "rules" engine hook per folder.
  const ruleFolders = await findWorkspaceRules(root);
  for (const problem of ruleFolders.problems) skip(problem);
  for (const field of config.unknownFields) {
    logger.warn(`${configFile}: unknown field "${field}" is ignored (known: ${configFields.join(", ")})`);
  }

  // Filled in below once the dispatcher exists: an agent hook's sub-agent fires its points through it.
  const chain: { dispatch?: Hooks["dispatch"] } = {};
  const inprocess = (definition: HookDefinition, source: string, origin: Origin) => () =>
    compileHook(
      {
        engine: "inprocess",
        definition: withOverride(definition, config.overrides.get(definition.name)),
        source,
      },
      { root, origin },
    );
  const byName = new Map<
    string,
    { origin: Origin; file: string; build: () => CompiledHook; listing?: Listing }
  >();
  for (const definition of builtinHooks(root)) {
    byName.set(definition.name, {
      origin: "builtin",
      file: "builtin",
      build: inprocess(definition, "builtin", "builtin"),
    });
  }
  const workspaceEntries: Array<[string, string, () => CompiledHook]> = [
    ...workspace.hooks.map(({ file, definition }): [string, string, () => CompiledHook] => [
      definition.name,
      file,
      inprocess(definition, file, "workspace"),
    ]),
    ...config.rules.map((hook): [string, string, () => CompiledHook] => [
      hook.name,
      configFile,
      () =>
        compileHook(
          { ...hook, ...stripEnabled(config.overrides.get(hook.name)) },
          { root, origin: "workspace", chain, logger },
        ),
    ]),
    ...ruleFolders.rules.map((folder): [string, string, () => CompiledHook] => [
      folder.name,
      join(root, folder.dir),
      () =>
        compileHook(
          { ...folder, ...stripEnabled(config.overrides.get(folder.name)) },
          { root, origin: "workspace" },
        ),
    ]),
  ];
  workspaceEntries.sort(([a], [b]) => byCodeUnits(a, b));
  for (const [name, file, build] of workspaceEntries) {
    const previous = byName.get(name);
    if (previous?.origin === "workspace") {
      skip({
        name,
        code: "RUN_ERR_HOOK_INVALID",
        file,
        message: `the name is already used by ${previous.file}`,
      });
      continue;
    }
    // Deleting first puts an override in workspace order, not in the builtin's slot.
    byName.delete(name);
    byName.set(name, { origin: "workspace", file, build });
  }
  const state = new StateStore(join(root, ".hookyard", "state"));
  // The sandbox's modules only with a sandboxed hook to run: an event with none never loads them.
  const community = installed.sandboxed.length
    ? new (await import("../community-sandbox.js")).CommunitySandbox({
        ...(config.sandbox.isolation ? { isolation: config.sandbox.isolation } : {}),
        ...(config.sandbox.limits ? { limits: config.sandbox.limits } : {}),
        ...options.sandbox,
        root,
        logger,
        state,
      })
    : undefined;
  const communityEntries = [
    ...installed.sandboxed.map((hook) => ({
      name: hook.name,
      file: hook.source,
      listing: {
        ...(hook.version ? { version: hook.version } : {}),
        grants: hook.grants.map(formatGrant),
      },
      build: () =>
        compileHook(
          {
            ...hook,
            engine: "sandbox",
            settings: { ...hook.settings, ...stripEnabled(config.overrides.get(hook.name)) },
            config: config.overrides.get(hook.name)?.config ?? {},
          },
          { root, origin: "community", sandbox: community },
        ),
    })),
    ...installed.trusted.map(({ definition, source, version }) => ({
      name: definition.name,
      file: source,
      listing: { version },
      build: inprocess(definition, source, "community"),
    })),
  ];
  communityEntries.sort((a, b) => byCodeUnits(a.name, b.name));
  for (const { name, file, listing, build } of communityEntries) {
    const previous = byName.get(name);
    if (previous) {
      skip(
        {
          name,
          code: "RUN_ERR_HOOK_INVALID",
          file,
          message: `the name is already used by ${previous.file}`,
          fix: "uninstall one of the two, or rename the workspace hook",
        },
        "community",
      );
      continue;
    }
    byName.set(name, { origin: "community", file, build, listing });
  }
  for (const name of [...config.overrides.keys(), ...config.brokenOverrides]) {
    const skipped = problems.some((problem) => problem.name === name);
    if (!byName.has(name) && !skipped) {
      logger.warn(`hookyard.json overrides hook "${name}", but no hook has that name`);
    }
  }

  const compiled: CompiledHook[] = [];
  const listings = new Map<CompiledHook, Listing>();
  for (const [name, entry] of byName) {
    if (config.overrides.get(name)?.enabled === false) continue;
    if (config.brokenOverrides.has(name)) {
      // Not run in a state nobody asked for, but not gone either: its stand-in fails closed at its points.
      const problem = problems.find((p) => p.name === name && config.problems.includes(p));
      if (problem) {
        origins.set(problem, entry.origin);
        if (problem.points === undefined) {
          try {
            const hook = entry.build();
            // A background hook observes only: it never guarded anything, so it needs no stand-in.
            problem.points = hook.mode === "background" ? [] : hook.points;
          } catch {
            // Its points stay unknown: every blockable point.
          }
        }
      }
      continue;
    }
    let built: CompiledHook | undefined;
    try {
      built = entry.build();
      compileMatcher(built.matcher, built.name, built.points);
      compiled.push(built);
      if (entry.listing) listings.set(built, entry.listing);
    } catch (error) {
      const code = error instanceof RunnerError ? error.code : "RUN_ERR_HOOK_INVALID";
      // Built, then refused (its matcher): its points are known, and its stand-in stands only there.
      const at = built === undefined ? {} : { points: built.mode === "background" ? [] : built.points };
      skip(
        { name, code, file: entry.file, message: errorText(error), fix: `fix ${entry.file}`, ...at },
        entry.origin,
      );
    }
  }
  const notInstalled: LoadProblem[] = [];
  const notInstalledPoints = new Set<Point>();
  const notInstalledSkipped: LoadProblem[] = [];
  for (const problem of problems) {
    problem.onError ??= config.overrides.get(problem.name)?.onError;
    const standIn = brokenHook(problem, origins.get(problem) ?? "workspace");
    if (standIn) compiled.push(standIn);
    if (problem.code === "RUN_ERR_NOT_INSTALLED") {
      notInstalled.push(problem);
      for (const point of standIn?.points ?? []) notInstalledPoints.add(point);
      if (!standIn) notInstalledSkipped.push(problem);
    } else logger.error(problemLine(problem, standIn?.points, configFile));
  }
  if (notInstalled.length > 0) {
    const at = points.filter((point) => notInstalledPoints.has(point));
    logger.error(`RUN_ERR_NOT_INSTALLED: ${notInstalledLine(notInstalled, at, notInstalledSkipped)}`);
  }
  if (options.prestart !== false && compiled.some((hook) => hook.engine === "sandbox")) community?.prestart();
  const dispatcher = new Dispatcher(compiled, {
    logger,
    apiFor: (hook) =>
      trustedApi({
        hook: hook.name,
        root,
        state: state.forHook(hook.name),
        logger,
        config: config.overrides.get(hook.name)?.config ?? {},
      }),
    ...(options.backgroundLimit ? { backgroundLimit: options.backgroundLimit } : {}),
  });
  const offLine = notInForceLine(problems, compiled);
  const validate = options.validate ?? true;
  let closed = false;

  const hooks: Hooks = {
    root,
    problems,
    dispatch: async (point, ctx) => {
      if (closed) throw new RunnerError("RUN_ERR_CLOSED", "dispatch after close(); load the hooks again");
      if (validate) {
        const parsed = ctxSchema(point).safeParse(ctx);
        if (!parsed.success) {
          throw new RunnerError(
            "RUN_ERR_BAD_CTX",
            `ctx for ${point} is invalid: ${describeIssues(parsed.error)}`,
            {
              point,
            },
          );
        }
      }
      const outcome = await dispatcher.dispatch(point, ctx);
      // Once a session, in the agent's user channel: what the workspace asks for that is not in force.
      if (point === "agent_before" && offLine) outcome.notices.push({ hook: "hookyard", text: offLine });
      return outcome;
    },
    list: () =>
      points.map((point) => {
        const { sync, background } = dispatcher.chain(point);
        const shown = [...sync, ...background].filter((hook) => hook.listedPoints?.()?.has(point) ?? true);
        return { point, hooks: shown.map((hook) => listed(hook, listings.get(hook))) };
      }),
    quarantined: () => community?.quarantinedNames ?? [],
    onStateWrite: (listener) => state.onWrite(listener),
    drain: async () => {
      await dispatcher.drain();
      await state.flush();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await dispatcher.drain();
      await state.flush();
      await Promise.all(compiled.map((hook) => hook.close?.()));
      await community?.close();
    },
  };
  chain.dispatch = hooks.dispatch;
  return hooks;
}

/** Name order that does not depend on the locale: registration order must be the same everywhere. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withOverride<T extends object>(definition: T, override: HookOverride | undefined): T {
  return override ? { ...definition, ...stripEnabled(override) } : definition;
}

/** An override's hook settings, without what is not a setting (`enabled`, and `config`, which goes to api.config). */
function stripEnabled(override: HookOverride | undefined): Omit<HookOverride, "enabled" | "config"> {
  if (!override) return {};
  const { enabled: _enabled, config: _config, ...settings } = override;
  return settings;
}

function listed(hook: CompiledHook, listing: Listing = {}): ListedHook {
  return {
    name: hook.name,
    origin: hook.origin,
    trust: hook.trust,
    engine: hook.engine,
    priority: hook.priority,
    mode: hook.mode,
    onError: hook.onError,
    matcher: hook.matcher,
    source: hook.source,
    ...(hook.broken ? { broken: hook.broken.reason } : {}),
    ...listing,
  };
}

/** How a hook that did not load is reported, the same in every command: code, name, file, what is wrong, what follows. */
function problemLine(
  problem: LoadProblem,
  closedAt: readonly Point[] | undefined,
  configFile: string,
): string {
  const where = `${problem.code}: ${problem.setting ? "" : "hook "}"${problem.name}" (${problem.file ?? configFile})`;
  const fix = problem.fix ? ` (${problem.fix})` : "";
  if (closedAt) {
    return `${where} could not be loaded and blocks at ${closedAt.join(", ")} until fixed${fix}: ${problem.message}`;
  }
  const consequence = problem.setting ? "is ignored" : "was skipped";
  return `${where} ${consequence}${fix}: ${problem.message}`;
}

/** One short line naming the hooks that did not load and what follows for each; undefined when all did. */
function notInForceLine(
  problems: readonly LoadProblem[],
  compiled: readonly CompiledHook[],
): string | undefined {
  const hooks = problems.filter((problem) => !problem.setting);
  if (hooks.length === 0) return undefined;
  const standIns = new Set(compiled.filter((hook) => hook.broken).map((hook) => hook.name));
  const each = hooks.map(
    (problem) => `"${problem.name}" (${standIns.has(problem.name) ? "blocks until fixed" : "left out"})`,
  );
  return `${hooks.length} hook(s) could not be loaded: ${each.join(", ")}; \`hookyard status\` says why and how to fix it`;
}
