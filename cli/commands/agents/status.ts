import type { CodexInstall } from "../../../adapters/codex/settings/install-state.js";
import type { DaemonStatus } from "../../../adapters/daemon/status.js";
import type { LoadProblem } from "../../../core/errors.js";
import type { Hooks, ListedHook } from "../../../runner/load/load-hooks.js";
import { leftOutWhy } from "../../../runner/load/not-in-force.js";
import type { Command } from "../../command.js";
import { loadWorkspaceHooks } from "../../load-hooks.js";
import { table } from "../../ui/table.js";

/** One hook as status shows it: in force, or not and why. */
export interface HookState {
  name: string;
  origin: string;
  state: "loaded" | "broken" | "left out" | "quarantined";
  points: string[];
  why?: string;
}

export default {
  name: "status",
  summary: "Show what is in force in this workspace and what is off, and why: the exec daemon, each hook",
  options: [{ flags: "--json", description: "print JSON instead of text" }],
  help: [
    "Hooks: loaded (in force), broken (could not load, so it blocks every call where it would have run,",
    "until fixed), left out (could not load, and hookyard.json gives it onError open), quarantined (a",
    "sandboxed hook that kept killing its isolate: it does not run until the daemon restarts).",
    "When the daemon is up, its own view is shown: what it has loaded is what answers the agent.",
    "Codex: hookyard's entries in .codex/hooks.json (and $CODEX_HOME/hooks.json) that Codex has not trusted",
    "yet, which it silently does not run. Exit 0 when every hook is in force, 1 when one is not.",
  ].join("\n"),
  async run(context, _args, options) {
    const { findWorkspaceRoot } = await import("../../../workspace/root.js");
    const { daemonStatus } = await import("../../../adapters/daemon/status.js");
    const root = await findWorkspaceRoot(context.cwd);
    const daemon = await daemonStatus(root, { env: context.env });
    const { codexInstalls } = await import("../../../adapters/codex/settings/install-state.js");
    const hooks = daemon.running ? fromDaemon(daemon) : await fromWorkspace(root);
    const off = hooks.states.filter((hook) => hook.state !== "loaded");
    const codex = await codexInstalls(root, context.env);
    const untrusted = codex.some((install) => install.untrusted.length > 0);
    if (options.json) {
      context.stdout.write(`${JSON.stringify({ root, daemon, hooks: hooks.states, codex }, null, 2)}\n`);
      return off.length > 0 || hooks.loadError || untrusted ? 1 : 0;
    }
    context.stdout.write(`workspace  ${root}\n`);
    context.stdout.write(`daemon     ${daemonLine(daemon)}\n`);
    for (const install of codex) context.stdout.write(`codex      ${codexLine(install)}\n`);
    if (hooks.loadError) {
      context.stdout.write(`\nno hook is in force: ${hooks.loadError}\n`);
      return 1;
    }
    context.stdout.write("\n");
    if (hooks.states.length === 0) context.stdout.write("no hooks\n");
    else {
      const rows = hooks.states.map((hook) => [
        hook.name,
        hook.state === "loaded" ? "loaded" : hook.state.toUpperCase(),
        hook.origin,
        hook.why ?? hook.points.join(", "),
      ]);
      context.stdout.write(table(rows, "  "));
    }
    context.stdout.write(
      off.length === 0
        ? "\nevery hook is in force\n"
        : `\n${off.length} hook(s) not in force; \`hookyard list\` shows the chains\n`,
    );
    return off.length > 0 || untrusted ? 1 : 0;
  },
} satisfies Command;

/** Codex runs no hook it has not trusted, and says nothing: that must not look installed. */
function codexLine(install: CodexInstall): string {
  if (install.untrusted.length === 0) {
    return `hookyard's ${install.entries} hooks in ${install.file} are trusted by Codex`;
  }
  return `NOT TRUSTED: Codex has not trusted hookyard's hooks in ${install.file} (${install.untrusted.join(", ")}; no trust recorded in ${install.config}), so it does not run them: start codex there and trust them in /hooks`;
}

function daemonLine(daemon: DaemonStatus): string {
  if (!daemon.running) {
    return `not running (the next \`hookyard exec\` starts it; until then exec answers by itself): ${daemon.why}`;
  }
  return `up, pid ${daemon.pid}, since ${daemon.startedAt}, socket ${daemon.socket}, log ${daemon.log}`;
}

interface Seen {
  states: HookState[];
  loadError?: string;
}

/** The daemon's own view: what answers the agent now. */
function fromDaemon(daemon: DaemonStatus & { running: true }): Seen {
  if (daemon.loadError) return { states: [], loadError: daemon.loadError };
  const chains = daemon.hooks as ReturnType<Hooks["list"]>;
  const problems = daemon.problems as LoadProblem[];
  const quarantined = daemon.quarantined ?? [];
  return { states: hookStates(chains, problems, quarantined) };
}

/** No daemon: the workspace as a fresh `exec` would load it (no sandbox process is started). */
async function fromWorkspace(root: string): Promise<Seen> {
  const { renderError } = await import("../../error-message.js");
  let hooks: Hooks;
  try {
    hooks = await loadWorkspaceHooks({ cwd: root, prestart: false, logger: quietLogger });
  } catch (error) {
    return { states: [], loadError: renderError(error).line.replace(/^hookyard: /, "") };
  }
  try {
    return { states: hookStates(hooks.list(), hooks.problems, hooks.quarantined()) };
  } finally {
    await hooks.close();
  }
}

/** Problems are shown in the table, not as load lines on stderr. */
const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };

export function hookStates(
  chains: ReturnType<Hooks["list"]>,
  problems: readonly LoadProblem[],
  quarantined: readonly string[],
): HookState[] {
  const byName = new Map<string, HookState>();
  const add = (hook: ListedHook, point: string) => {
    const known = byName.get(hook.name);
    if (known) {
      if (!known.points.includes(point)) known.points.push(point);
      return;
    }
    byName.set(hook.name, {
      name: hook.name,
      origin: hook.origin,
      state: hook.broken ? "broken" : quarantined.includes(hook.name) ? "quarantined" : "loaded",
      points: [point],
      ...(hook.broken ? { why: hook.broken } : {}),
      ...(quarantined.includes(hook.name)
        ? { why: "quarantined after repeated isolate failures; it runs again once the daemon restarts" }
        : {}),
    });
  };
  for (const chain of chains) for (const hook of chain.hooks) add(hook, chain.point);
  for (const problem of problems) {
    if (problem.setting || byName.has(problem.name)) continue;
    byName.set(problem.name, {
      name: problem.name,
      origin: "workspace",
      state: "left out",
      points: [...(problem.points ?? [])],
      why: `could not be loaded (${leftOutWhy(problem)}): ${problem.message}`,
    });
  }
  return [...byName.values()];
}
