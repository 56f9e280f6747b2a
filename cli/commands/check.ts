import { relative } from "node:path";
import type { CheckProblem } from "../../client/check/check-workspace.js";
import { findWorkspaceRoot } from "../../workspace/root.js";
import type { Command } from "../command.js";
import { exitCodes } from "../errors.js";
import { hookyardTypes } from "../hookyard-types.js";
import { loadWorkspaceHooks } from "../load-hooks.js";

export default {
  name: "check",
  summary: "Check the workspace's hooks and files: type errors, hookyard.json, hookyard.lock, rule files",
  options: [{ flags: "--json", description: "print { root, hooks, typeChecked, problems } as JSON" }],
  help: [
    "Reports, all at once and each as file:line:column, what would keep a hook of this workspace",
    "from running as written: TypeScript type errors in .hookyard/hooks/*.ts (checked strictly, with",
    "this hookyard's types for `hookyard`), every field of hookyard.json and hookyard.lock that is",
    "invalid, and every hook that fails to load (a syntax error, a bad definition such as an unknown",
    "point, a rule file's mistakes, a community hook missing from the store or changed there).",
    "Nothing is written and no hook runs. Exit code 0 when there is nothing to fix, 1 otherwise:",
    "run it before committing, or in CI.",
  ].join("\n"),
  async run(context, _args, options) {
    const root = await findWorkspaceRoot(context.cwd);
    const { checkWorkspace } = await import("../../client/check/check-workspace.js");
    const result = await checkWorkspace(
      root,
      async (at) => {
        const silent = { info() {}, warn() {}, error() {} };
        const hooks = await loadWorkspaceHooks({ cwd: at, logger: silent, prestart: false });
        try {
          const names = new Set(
            hooks
              .list()
              .flatMap((chain) => chain.hooks.filter((hook) => !hook.broken).map((hook) => hook.name)),
          );
          return { count: names.size, problems: hooks.problems };
        } finally {
          await hooks.close();
        }
      },
      await hookyardTypes(),
    );
    if (options.json) {
      context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      for (const problem of result.problems) context.stdout.write(`${line(problem)}\n`);
      const where = relative(context.cwd, root) || ".";
      const typed = `${result.typeChecked.length} hook file${result.typeChecked.length === 1 ? "" : "s"} type-checked`;
      const found = result.problems.length;
      context.stdout.write(
        found === 0
          ? `checked workspace ${where}: ${result.hooks} hook${result.hooks === 1 ? "" : "s"}, ${typed}, no problems\n`
          : `checked workspace ${where}: ${found} problem${found === 1 ? "" : "s"} (${typed})\n`,
      );
    }
    return result.problems.length > 0 ? exitCodes.error : exitCodes.ok;
  },
} satisfies Command;

function line(problem: CheckProblem): string {
  return `${problem.file}:${problem.line}:${problem.column} - ${problem.code}: ${problem.message}`;
}
