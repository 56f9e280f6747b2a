import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TypeProblem } from "../../../client/package-test/typecheck.js";
import type { CliContext, Command } from "../../command.js";
import { CliError, exitCodes } from "../../errors.js";
import { hookyardTypes } from "../../hookyard-types.js";

/** The tests `hookyard new` writes and the sample hooks keep, as a glob node --test expands itself. */
const defaultPatterns = ["test/**/*.test.{js,mjs,ts}"];

export default {
  name: "test",
  summary:
    "Type-check a hook package and run its tests, with this hookyard as `hookyard` and `hookyard/testing`",
  args: [
    {
      name: "[patterns...]",
      description: `test files or globs, as node --test takes them (default: ${defaultPatterns.join(" ")})`,
    },
  ],
  options: [{ flags: "--no-typecheck", description: "run the tests without type-checking the hook first" }],
  help: [
    "Run it in the package's folder (the one whose package.json has a hookyard field); it is what",
    "`npm test` runs in a package made by `hookyard new`. First the hook's TypeScript is checked:",
    "the files tsconfig.json names, or without one every .ts file under src/, with hookyard's types",
    "for `hookyard` and `hookyard/testing`; any type error stops there, each shown as file:line:column.",
    "Then `node --test` runs the tests on this hookyard's Node, with `--no-node-snapshot` (the sandbox",
    "needs it). The package needs no dependency on hookyard: where it has none installed, its imports",
    "of `hookyard` resolve to the hookyard running the tests, so they pass offline and no package of",
    "that name is ever fetched for them. One the package does install is used instead.",
    "Exit code: node --test's own (0 when every test passes), 1 on type errors.",
  ].join("\n"),
  async run(context, patterns, options) {
    const dir = resolve(context.cwd);
    await refuseUnlessHookPackage(dir);
    if (options.typecheck !== false) {
      const { typecheckPackage } = await import("../../../client/package-test/typecheck.js");
      const checked = await typecheckPackage(dir, await hookyardTypes());
      if (checked.problems.length > 0) {
        context.stderr.write(
          checked.problems
            .map((problem) => `${where(problem)} - error ${problem.code}: ${problem.message}\n`)
            .join(""),
        );
        const files = new Set(checked.problems.map((problem) => problem.file)).size;
        context.stderr.write(
          `hookyard test: ${checked.problems.length} type error${checked.problems.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}; the tests were not run: fix them, or pass --no-typecheck\n`,
        );
        return exitCodes.error;
      }
      context.stderr.write(
        `type-checked ${checked.files.length} file${checked.files.length === 1 ? "" : "s"}: no errors\n`,
      );
    }
    return runNodeTests(context, dir, patterns.length > 0 ? patterns : defaultPatterns);
  },
} satisfies Command;

function where(problem: TypeProblem): string {
  return problem.file ? `${problem.file}:${problem.line}:${problem.column}` : "tsconfig";
}

async function refuseUnlessHookPackage(dir: string): Promise<void> {
  const text = await readFile(join(dir, "package.json"), "utf8").catch(() => undefined);
  let manifest: unknown;
  try {
    manifest = text === undefined ? undefined : JSON.parse(text);
  } catch {
    manifest = undefined;
  }
  if (typeof manifest !== "object" || manifest === null || !("hookyard" in manifest)) {
    throw new CliError(
      "CLI_ERR_USAGE",
      `${dir} is not a hook package (no package.json with a hookyard field): run hookyard test in the package's folder, or make one with hookyard new <name>`,
      exitCodes.usage,
    );
  }
}

/** The `types` of hookyard's own exports, as TypeScript would find them in node_modules/hookyard. */
/** node --test in its own process, its output passed through as it comes. */
function runNodeTests(context: CliContext, dir: string, patterns: string[]): Promise<number> {
  const register = fileURLToPath(
    new URL("../../../client/package-test/register-resolve.js", import.meta.url),
  );
  const child = spawn(process.execPath, ["--no-node-snapshot", "--import", register, "--test", ...patterns], {
    cwd: dir,
    env: context.env,
    stdio: ["inherit", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => context.stdout.write(chunk));
  child.stderr.on("data", (chunk: Buffer) => context.stderr.write(chunk));
  return new Promise((resolveCode, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolveCode(code ?? exitCodes.error));
  });
}
