import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { builtinHooks } from "./builtin/index.js";
import { CommunitySandbox, type CommunitySandboxOptions } from "./community-sandbox.js";
import { compileRule } from "./compile-rule.js";
import { configFileName, type HookOverride, knownFields, readWorkspaceConfig } from "./config.js";
import { Dispatcher } from "./dispatch.js";
import type { SandboxRuleConfig } from "./engines/sandbox.js";
import { describeIssues, errorText, type LoadProblem, RunnerError } from "./errors.js";
import { type CtxOf, ctxSchema, type Point, points } from "./events.js";
import type { HookDefinition } from "./hook.js";
import { loadWorkspaceHooks } from "./loaders/workspace.js";
import { type Logger, stderrLogger } from "./logger.js";
import { compileMatcher } from "./matcher.js";
import type { ChainOutcome } from "./outcome.js";
import type { Origin, Rule, Trust } from "./rule.js";
import { StateStore } from "./state.js";
import { trustedApi } from "./trusted-api.js";

export interface LoadHooksOptions {
  /** Any directory inside the workspace; the root is the nearest one holding hookyard.json or .hookyard/. */
  cwd?: string;
  logger?: Logger;
  /** Validate each ctx against its point's schema before dispatch (default true). */
  validate?: boolean;
  backgroundLimit?: number;
  /** Community hooks, verified by the caller (bytes hashed and compared with the lock): run sandboxed. */
  community?: readonly CommunityHookConfig[];
  /** How sandboxed hooks run: isolation mode, limits, a resolver for tests. */
  sandbox?: Omit<CommunitySandboxOptions, "root" | "logger" | "state">;
}

/** A community hook as the lockfile loader hands it over: the sandbox engine's config without `engine`. */
export type CommunityHookConfig = Omit<SandboxRuleConfig, "engine">;

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
}

export interface Hooks {
  readonly root: string;
  /** Runs the chain at `point`. `ctx` is changed in place by rewrites and is also `outcome.ctx`. */
  dispatch<P extends Point>(point: P, ctx: CtxOf<P>): Promise<ChainOutcome<CtxOf<P>>>;
  /** Every point's chain in execution order: synchronous hooks, then background ones. */
  list(): Array<{ point: Point; hooks: ListedHook[] }>;
  /** Hook files and config entries that did not load, each by name. */
  readonly problems: readonly LoadProblem[];
  /** Waits for background hooks and pending state writes. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export async function findWorkspaceRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if ((await exists(join(dir, configFileName))) || (await exists(join(dir, ".hookyard")))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/**
 * Loads builtin hooks, workspace hook files and hookyard.json rules, applies per-name overrides,
 * and returns a dispatcher. Registration order (for priority ties) is builtin, then workspace,
 * each in name order; a workspace hook or rule of the same name replaces a builtin.
 */
export async function loadHooks(options: LoadHooksOptions = {}): Promise<Hooks> {
  const logger = options.logger ?? stderrLogger;
  const root = await findWorkspaceRoot(options.cwd ?? process.cwd());
  const config = await readWorkspaceConfig(root);
  const workspace = await loadWorkspaceHooks(root);
  const configFile = join(root, configFileName);
  const problems: LoadProblem[] = [];
  const skip = (problem: LoadProblem) => {
    problems.push(problem);
    logger.error(problemLine(problem, configFile));
  };
  for (const problem of [...config.problems, ...workspace.problems]) skip(problem);
  for (const field of config.unknownFields) {
    logger.warn(`${configFile}: unknown field "${field}" is ignored (known: ${knownFields.join(", ")})`);
  }

  const inprocess = (definition: HookDefinition, source: string, origin: Origin) => () =>
    compileRule(
      {
        engine: "inprocess",
        definition: withOverride(definition, config.overrides.get(definition.name)),
        source,
      },
      { root, origin },
    );
  const byName = new Map<string, { origin: Origin; file: string; build: () => Rule }>();
  for (const definition of builtinHooks(root)) {
    byName.set(definition.name, {
      origin: "builtin",
      file: "builtin",
      build: inprocess(definition, "builtin", "builtin"),
    });
  }
  const workspaceEntries: Array<[string, string, () => Rule]> = [
    ...workspace.hooks.map(({ file, definition }): [string, string, () => Rule] => [
      definition.name,
      file,
      inprocess(definition, file, "workspace"),
    ]),
    ...config.rules.map((rule): [string, string, () => Rule] => [
      rule.name,
      configFile,
      () =>
        compileRule(
          { ...rule, ...stripEnabled(config.overrides.get(rule.name)) },
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
  const community = options.community?.length
    ? new CommunitySandbox({
        ...(config.sandbox.isolation ? { isolation: config.sandbox.isolation } : {}),
        ...(config.sandbox.limits ? { limits: config.sandbox.limits } : {}),
        ...options.sandbox,
        root,
        logger,
        state,
      })
    : undefined;
  for (const hook of [...(options.community ?? [])].sort((a, b) => byCodeUnits(a.name, b.name))) {
    const previous = byName.get(hook.name);
    if (previous) {
      skip({
        name: hook.name,
        code: "RUN_ERR_HOOK_INVALID",
        file: hook.source,
        message: `the name is already used by ${previous.file}`,
      });
      continue;
    }
    const override = stripEnabled(config.overrides.get(hook.name));
    byName.set(hook.name, {
      origin: "community",
      file: hook.source,
      build: () =>
        compileRule(
          { ...hook, engine: "sandbox", settings: { ...hook.settings, ...override } },
          { root, origin: "community", sandbox: community },
        ),
    });
  }
  for (const name of [...config.overrides.keys(), ...config.brokenOverrides]) {
    const skipped = problems.some((problem) => problem.name === name);
    if (!byName.has(name) && !skipped) {
      logger.warn(`hookyard.json overrides hook "${name}", but no hook has that name`);
    }
  }

  const rules: Rule[] = [];
  for (const [name, entry] of byName) {
    if (config.overrides.get(name)?.enabled === false || config.brokenOverrides.has(name)) continue;
    try {
      const rule = entry.build();
      compileMatcher(rule.matcher, rule.name, rule.points);
      rules.push(rule);
    } catch (error) {
      const code = error instanceof RunnerError ? error.code : "RUN_ERR_HOOK_INVALID";
      skip({ name, code, file: entry.file, message: errorText(error) });
    }
  }
  if (rules.some((rule) => rule.engine === "sandbox")) community?.prestart();
  const dispatcher = new Dispatcher(rules, {
    logger,
    apiFor: (rule) => trustedApi({ hook: rule.name, root, state: state.forHook(rule.name), logger }),
    ...(options.backgroundLimit ? { backgroundLimit: options.backgroundLimit } : {}),
  });
  const validate = options.validate ?? true;
  let closed = false;

  return {
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
      return dispatcher.dispatch(point, ctx);
    },
    list: () =>
      points.map((point) => {
        const { sync, background } = dispatcher.chain(point);
        return { point, hooks: [...sync, ...background].map(listed) };
      }),
    drain: async () => {
      await dispatcher.drain();
      await state.flush();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await dispatcher.drain();
      await state.flush();
      await Promise.all(rules.map((rule) => rule.close?.()));
      await community?.close();
    },
  };
}

/** Name order that does not depend on the locale: registration order must be the same everywhere. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function withOverride<T extends object>(definition: T, override: HookOverride | undefined): T {
  return override ? { ...definition, ...stripEnabled(override) } : definition;
}

function stripEnabled(override: HookOverride | undefined): Omit<HookOverride, "enabled"> {
  if (!override) return {};
  const { enabled: _enabled, ...settings } = override;
  return settings;
}

function listed(rule: Rule): ListedHook {
  return {
    name: rule.name,
    origin: rule.origin,
    trust: rule.trust,
    engine: rule.engine,
    priority: rule.priority,
    mode: rule.mode,
    onError: rule.onError,
    matcher: rule.matcher,
    source: rule.source,
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** How a skipped hook is reported, the same in every command: code, name, file, what is wrong. */
function problemLine(problem: LoadProblem, configFile = configFileName): string {
  return `${problem.code}: hook "${problem.name}" (${problem.file ?? configFile}) was skipped: ${problem.message}`;
}
