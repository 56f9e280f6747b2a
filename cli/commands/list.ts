import type { LoadProblem } from "../../core/errors.js";
import type { ListedHook } from "../../runner/load/load-hooks.js";
import { brokenReason, leftOutWhy, notInstalledLine } from "../../runner/load/not-in-force.js";
import type { Logger } from "../../runner/logger.js";
import type { CliContext, Command } from "../command.js";
import { loadWorkspaceHooks } from "../load-hooks.js";
import { table } from "../ui/table.js";

export default {
  name: "list",
  summary:
    "Show every point's chain in execution order: origin, trust, priority, matcher, engine; community hooks with version and grants",
  options: [
    { flags: "--json", description: "print JSON instead of a table" },
    { flags: "--all", description: "also show points that have no hooks" },
  ],
  async run(context, _args, options) {
    const hooks = await loadWorkspaceHooks({
      cwd: context.cwd,
      logger: contextLogger(context),
      prestart: false,
    });
    try {
      const chains = hooks.list();
      if (options.json) {
        context.stdout.write(
          `${JSON.stringify({ root: hooks.root, chains, problems: hooks.problems }, null, 2)}\n`,
        );
        return hooks.problems.length > 0 ? 1 : 0;
      }
      context.stdout.write(`workspace ${hooks.root}\n`);
      for (const { point, hooks: chain } of chains) {
        if (chain.length === 0 && !options.all) continue;
        context.stdout.write(`\n${point}\n`);
        if (chain.length === 0) {
          context.stdout.write("  (no hooks)\n");
          continue;
        }
        const rows = chain.map((h, i) => [
          `${i + 1}.`,
          h.version ? `${h.name}@${h.version}` : h.name,
          h.origin,
          h.trust,
          h.broken ? "first" : `priority ${h.priority}`,
          h.broken ? "BROKEN: blocks every call" : h.engine,
          h.mode === "background" ? "background" : "",
          h.matcher
            ? Object.entries(h.matcher)
                .map(([k, v]) => `${k}=${v}`)
                .join(" ")
            : "",
          access(h),
        ]);
        context.stdout.write(table(rows, "  "));
      }
      if (chains.every((c) => c.hooks.length === 0)) context.stdout.write("\nno hooks are enabled\n");
      if (hooks.problems.length > 0) {
        const standIns = new Set(chains.flatMap((c) => c.hooks.filter((h) => h.broken).map((h) => h.name)));
        context.stdout.write(notInForce(hooks.problems, standIns));
      }
      return hooks.problems.length > 0 ? 1 : 0;
    } finally {
      await hooks.close();
    }
  },
} satisfies Command;

/** The hooks that did not load, each with why and the fix: broken ones block, opted-out ones are left out. */
function notInForce(problems: readonly LoadProblem[], standIns: ReadonlySet<string>): string {
  const notInstalled = problems.filter((problem) => problem.code === "RUN_ERR_NOT_INSTALLED");
  const lines = problems
    .filter((problem) => !notInstalled.includes(problem))
    .map((problem) => {
      const what = problem.setting ? `setting "${problem.name}"` : `hook "${problem.name}"`;
      const state = problem.setting
        ? "ignored"
        : standIns.has(problem.name)
          ? "broken"
          : `left out (${leftOutWhy(problem)})`;
      return `  ${state}: ${what} ${brokenReason(problem)}\n`;
    });
  if (notInstalled.length > 0) lines.unshift(`  not installed: ${notInstalledLine(notInstalled, [])}\n`);
  return `\nnot in force\n${lines.join("")}`;
}

/** What a community hook may do: its grants when sandboxed, everything when trusted. */
function access(hook: ListedHook): string {
  if (hook.origin !== "community") return "";
  if (hook.trust === "trusted") return "full access";
  return hook.grants?.length ? `grants ${hook.grants.join(" ")}` : "no grants";
}

/** Problems and warnings go to the command's stderr, as every command reports them. */
function contextLogger(context: CliContext): Logger {
  return {
    info: (message) => context.stderr.write(`hookyard: ${message}\n`),
    warn: (message) => context.stderr.write(`hookyard: warning: ${message}\n`),
    error: (message) => context.stderr.write(`hookyard: error: ${message}\n`),
  };
}
