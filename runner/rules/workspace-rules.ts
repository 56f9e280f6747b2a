import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { LoadProblem } from "../../core/errors.js";
import type { RulesHookConfig } from "../engines/rules.js";
import { formats } from "./formats.js";
import { RuleFiles } from "./rule-files.js";

/** Where a workspace keeps rule files, and the hook each folder becomes. */
const folders = [
  { name: "rules", dir: ".hookyard/rules", format: "hookyard" },
  { name: "hookify", dir: ".claude", format: "hookify" },
] as const;

/**
 * The rule folders of a workspace as rules-engine hooks: `.hookyard/rules/` when it exists, `.claude/`
 * when it holds `hookify.*.local.md` files. Each folder is read once here, so a broken file is a load
 * problem like a broken hook file; the hook then re-reads files as they change.
 */
export async function findWorkspaceRules(
  root: string,
): Promise<{ rules: RulesHookConfig[]; problems: LoadProblem[] }> {
  const rules: RulesHookConfig[] = [];
  const problems: LoadProblem[] = [];
  for (const { name, dir, format } of folders) {
    const path = join(root, dir);
    const present =
      format === "hookify"
        ? (await readdir(path).catch(() => [])).some((file) => formats.hookify.files.test(file))
        : (await stat(path).catch(() => undefined))?.isDirectory() === true;
    if (!present) continue;
    const files = new RuleFiles(path, format);
    problems.push(...files.refresh().problems);
    rules.push({ engine: "rules", name, dir, format, files });
  }
  return { rules, problems };
}
