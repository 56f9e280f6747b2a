import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import type * as z from "zod";
import { errorText, type LoadProblem, RunnerError } from "../../core/errors.js";
import { hookFileNames } from "../../runner/load/workspace.js";
import { installFieldsSchema } from "../../workspace/config-file.js";
import { lockFileName, lockfileSchema } from "../../workspace/lockfile.js";
import { configFileName } from "../../workspace/root.js";
import { type HookyardTypes, typecheckFiles } from "../package-test/typecheck.js";
import { jsonPosition, leadingPath, type Position, parseErrorPosition } from "./json-position.js";

/** One thing to fix, where an editor would show it. */
export interface CheckProblem extends Position {
  /** Relative to the workspace root. */
  file: string;
  /** hookyard's code (RUN_ERR_…), or TypeScript's (TS2322). */
  code: string;
  message: string;
}

export interface CheckResult {
  root: string;
  /** Hooks that load (of every origin), and the hook files that were type-checked. */
  hooks: number;
  typeChecked: string[];
  problems: CheckProblem[];
}

/** What `check` needs of the hooks as the commands load them (the CLI registers the agents' script protocols first). */
export type LoadForCheck = (root: string) => Promise<{ count: number; problems: readonly LoadProblem[] }>;

/**
 * Everything that would stop a hook of this workspace from running as written, all at once:
 * hookyard.json (the runner's fields and install's), hookyard.lock, every hook that fails to load
 * (syntax, definition, rule files, store bytes) and the type errors of `.hookyard/hooks/*.ts`.
 */
export async function checkWorkspace(
  root: string,
  load: LoadForCheck,
  types: HookyardTypes,
): Promise<CheckResult> {
  const problems: CheckProblem[] = [];
  const config = await jsonFile(root, configFileName, problems);
  if (config !== undefined)
    problems.push(
      ...(await schemaProblems(configFileName, config, installFieldsSchema, "RUN_ERR_CONFIG_INVALID")),
    );
  const before = problems.length;
  const lock = await jsonFile(root, lockFileName, problems, "RUN_ERR_LOCK_INVALID");
  if (lock !== undefined)
    problems.push(...(await schemaProblems(lockFileName, lock, lockfileSchema, "RUN_ERR_LOCK_INVALID")));
  const lockReported = problems.length > before;

  let hooks = 0;
  // A hookyard.json that is not JSON stops every hook from loading: that one problem is reported, above.
  if (config !== undefined) {
    try {
      const loaded = await load(root);
      hooks = loaded.count;
      for (const problem of loaded.problems) {
        // An invalid lock was reported field by field; its hookyard.lock stand-in would repeat it.
        if (problem.code === "RUN_ERR_LOCK_INVALID" && problem.name === lockFileName && lockReported)
          continue;
        problems.push(...(await located(root, problem)));
      }
    } catch (error) {
      if (!(error instanceof RunnerError)) throw error;
      problems.push({ file: configFileName, line: 1, column: 1, code: error.code, message: error.message });
    }
  }

  const hookFiles = await typescriptHookFiles(root);
  const typed =
    hookFiles.length > 0 ? await typecheckFiles(root, hookFiles, types) : { files: [], problems: [] };
  problems.push(...typed.problems.map((p) => ({ ...p, file: p.file || "tsconfig" })));
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  return { root, hooks, typeChecked: typed.files, problems: dedupe(problems) };
}

/** The file's text parsed, or undefined (no file, or not JSON: then that is a problem). */
async function jsonFile(
  root: string,
  name: string,
  problems: CheckProblem[],
  code: "RUN_ERR_CONFIG_INVALID" | "RUN_ERR_LOCK_INVALID" = "RUN_ERR_CONFIG_INVALID",
): Promise<{ text: string; data: unknown } | undefined> {
  const file = join(root, name);
  if (!existsSync(file)) return name === configFileName ? { text: "{}", data: {} } : undefined;
  const text = await readFile(file, "utf8");
  try {
    return { text, data: JSON.parse(text) };
  } catch (error) {
    problems.push({
      file: name,
      ...parseErrorPosition(errorText(error)),
      code,
      message: `not valid JSON: ${errorText(error)}`,
    });
    return undefined;
  }
}

async function schemaProblems(
  name: string,
  json: { text: string; data: unknown },
  schema: z.ZodType,
  code: string,
): Promise<CheckProblem[]> {
  const parsed = schema.safeParse(json.data);
  if (parsed.success) return [];
  return Promise.all(
    parsed.error.issues.map(async (issue) => ({
      file: name,
      ...(await jsonPosition(json.text, issue.path as Array<string | number>)),
      code,
      message: issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
    })),
  );
}

/**
 * A load problem at its file, and in it where its message says: esbuild's "(line 2, column 1)", a
 * JSON path (`rules[0].command: …`), or for a rule file each front-matter field it names, one
 * problem per field.
 */
async function located(root: string, problem: LoadProblem): Promise<CheckProblem[]> {
  const file = problem.file ? relative(root, problem.file) : configFileName;
  const name = problem.file ? `hook "${problem.name}": ` : "";
  const at = (position: Position, message = problem.message) => ({
    file,
    ...position,
    code: problem.code,
    message: `${name}${message}`,
  });
  const said = /\(line (\d+), column (\d+)\)/.exec(problem.message);
  if (said) return [at({ line: Number(said[1]), column: Number(said[2]) })];
  const text = problem.file ? await readFile(problem.file, "utf8").catch(() => undefined) : undefined;
  const path = leadingPath(problem.message);
  if (text !== undefined && problem.file?.endsWith(".json") && path)
    return [at(await jsonPosition(text, path))];
  if (text !== undefined && problem.file?.endsWith(".md")) {
    return problem.message.split(/; (?=[\w-]+: )/).map((part) => at(frontMatterPosition(text, part), part));
  }
  const field = /definition: (?:[\w$-]+\.)*([\w$-]+): /.exec(problem.message)?.[1];
  if (text !== undefined && field !== undefined) return [at(wordPosition(text, field))];
  return [at({ line: 1, column: 1 })];
}

/** Where a hook file first says `word` (the key a definition's message names, `tool_befor`). */
function wordPosition(text: string, word: string): Position {
  const match = new RegExp(`(?<![\\w$])${word.replace(/[$]/g, "\\$")}(?![\\w$])`).exec(text);
  if (!match) return { line: 1, column: 1 };
  const before = text.slice(0, match.index).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/** The line of the front-matter field a rule file's message starts with ("action: …"). */
function frontMatterPosition(text: string, message: string): Position {
  const field = /^([\w-]+): /.exec(message)?.[1];
  const lines = text.split("\n");
  const index =
    field === undefined ? -1 : lines.findIndex((line) => line.trimStart().startsWith(`${field}:`));
  return index < 0
    ? { line: 1, column: 1 }
    : { line: index + 1, column: (lines[index]?.search(/\S/) ?? 0) + 1 };
}

/** The TypeScript ones of the hook files the runner loads (an unreadable folder was reported by `load`). */
async function typescriptHookFiles(root: string): Promise<string[]> {
  const dir = join(root, ".hookyard", "hooks");
  const names = await hookFileNames(dir).catch((error: unknown) => {
    if (error instanceof RunnerError) return [];
    throw error;
  });
  return names.filter((n) => /\.m?ts$/.test(n)).map((n) => join(dir, n));
}

function dedupe(problems: CheckProblem[]): CheckProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}:${p.line}:${p.column}:${p.code}:${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
