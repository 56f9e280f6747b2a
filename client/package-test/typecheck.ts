import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import type ts from "typescript";
import { ClientError } from "../errors.js";

/** One type error, where an editor would show it. */
export interface TypeProblem {
  /** Relative to the package folder. */
  file: string;
  line: number;
  column: number;
  /** TypeScript's own code, e.g. TS2322. */
  code: string;
  message: string;
}

export interface TypecheckResult {
  /** The package's own files that were checked, relative to its folder. */
  files: string[];
  problems: TypeProblem[];
}

/**
 * Where `hookyard` and `hookyard/testing` types come from when the package has no hookyard
 * installed: the hookyard that checks it (its `types` exports).
 */
export interface HookyardTypes {
  index: string;
  testing: string;
}

/** What a hook is checked as: modern, strict, bundled (esbuild resolves its imports as `bundler` does). */
const defaultOptions = {
  strict: true,
  target: "ES2023",
  lib: ["ES2023"],
  module: "ESNext",
  moduleResolution: "Bundler",
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  noEmit: true,
} as const;

/**
 * Type-checks a hook package: the files its tsconfig.json names, or without one, every TypeScript
 * file under `src/` (what is bundled into the hook; tests in TypeScript need @types/node, which
 * the package then declares with a tsconfig of its own).
 */
export async function typecheckPackage(dir: string, types: HookyardTypes): Promise<TypecheckResult> {
  const { default: typescript } = await import("typescript");
  const configFile = join(dir, "tsconfig.json");
  const { fileNames, options } = existsSync(configFile)
    ? readTsconfig(typescript, configFile)
    : {
        fileNames: await typescriptFilesUnder(join(dir, "src")),
        options: typescript.convertCompilerOptionsFromJson(defaultOptions, dir).options,
      };
  return check(typescript, dir, fileNames, options, types);
}

/**
 * Type-checks `files` as workspace hooks are bundled (hookyard's defaults, `hookyard` resolving to
 * this hookyard unless the folder installs one); problems are relative to `dir`.
 */
export async function typecheckFiles(
  dir: string,
  files: string[],
  types: HookyardTypes,
): Promise<TypecheckResult> {
  const { default: typescript } = await import("typescript");
  const { options } = typescript.convertCompilerOptionsFromJson(defaultOptions, dir);
  return check(typescript, dir, files, options, types);
}

function check(
  typescript: typeof ts,
  dir: string,
  fileNames: string[],
  options: ts.CompilerOptions,
  types: HookyardTypes,
): TypecheckResult {
  options.noEmit = true;
  if (!hasHookyardInstalled(dir)) {
    options.paths = { ...options.paths, hookyard: [types.index], "hookyard/testing": [types.testing] };
  }
  const program = typescript.createProgram({ rootNames: fileNames, options });
  const problems = typescript
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => problemOf(typescript, diagnostic, dir));
  return { files: fileNames.map((file) => relative(dir, file)), problems };
}

function readTsconfig(typescript: typeof ts, configFile: string): ts.ParsedCommandLine {
  const parsed = typescript.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...typescript.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  const broken = parsed?.errors.find(
    (diagnostic) => diagnostic.category === typescript.DiagnosticCategory.Error,
  );
  if (!parsed || broken) {
    const why = broken
      ? typescript.flattenDiagnosticMessageText(broken.messageText, " ")
      : "it cannot be read";
    throw new ClientError(
      "CLI_ERR_TSCONFIG",
      `${configFile} is not a usable tsconfig: ${why}: fix it, or remove it to check src/ with hookyard's defaults`,
    );
  }
  return parsed;
}

function problemOf(typescript: typeof ts, diagnostic: ts.Diagnostic, dir: string): TypeProblem {
  const message = typescript.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  const code = `TS${diagnostic.code}`;
  if (!diagnostic.file || diagnostic.start === undefined)
    return { file: "", line: 0, column: 0, code, message };
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return {
    file: relative(dir, diagnostic.file.fileName),
    line: line + 1,
    column: character + 1,
    code,
    message,
  };
}

async function typescriptFilesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile() && /\.(c|m)?tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.split("/").includes("node_modules"))
    .sort();
}

/** Whether `hookyard` resolves from the package as Node would find it: a node_modules/hookyard above it. */
function hasHookyardInstalled(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "node_modules", "hookyard", "package.json"))) return true;
    if (dirname(at) === at) return false;
  }
}
