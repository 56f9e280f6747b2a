import { statSync } from "node:fs";
import { resolve } from "node:path";
import { Command as Commander, CommanderError, Option } from "commander";
import { type CliContext, type Command, type CommandGroup, isCommandGroup } from "./command.js";
import { commands } from "./commands/index.js";
import { renderError } from "./error-message.js";
import { CliError, exitCodes } from "./errors.js";
import { packageVersion } from "./package-root.js";

export interface Io {
  stdout: CliContext["stdout"];
  stderr: CliContext["stderr"];
  stdin: CliContext["stdin"];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Test seams for the install transaction (`CliContext.installTransaction`); `runCli` passes none. */
  installTransaction?: CliContext["installTransaction"];
}

/** Runs one command line and returns the exit code; never throws, never exits the process. */
export async function main(argv: string[], io: Io): Promise<number> {
  let exitCode: number = exitCodes.ok;
  let debug = argv.includes("--debug");
  const program = new Commander("hookyard")
    .description(
      "Run AI-agent hooks: trusted hooks in-process, community hooks sandboxed with granted capabilities.",
    )
    .version(packageVersion(), "-v, --version")
    .option("--cwd <dir>", "run as if started in <dir> (the workspace is found from there)")
    .option("--debug", "print stack traces and details on errors")
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // commander's own parse errors ("error: unknown option …") in the one style every error has.
      outputError: (text, write) => write(`${renderError(commanderUsageError(text)).line}\n`),
      // The width of the streams written to, not of process.stdout: help.txt is rendered at 80.
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
    })
    .exitOverride();

  for (const command of commands)
    register(program, command, io, (code) => {
      exitCode = code;
    });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      const quiet = ["commander.helpDisplayed", "commander.version", "commander.help"].includes(error.code);
      return quiet ? exitCodes.ok : exitCodes.usage;
    }
    debug ||= Boolean(program.opts().debug);
    const rendered = renderError(error, debug);
    io.stderr.write(`${rendered.line}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return rendered.exitCode;
  }
  return exitCode;
}

/** "error: unknown command 'lst'\n(Did you mean list?)\n" as a CLI_ERR_USAGE, on one line. */
function commanderUsageError(text: string): CliError {
  const [first = "", ...rest] = text
    .trim()
    .replace(/^error: /, "")
    .split("\n");
  const hint = rest
    .map((line) => line.trim().replace(/^\((.*)\)$/, "$1"))
    .filter(Boolean)
    .map((line) => line.charAt(0).toLowerCase() + line.slice(1));
  return new CliError("CLI_ERR_USAGE", [first.replace(/\.$/, ""), ...hint].join("; "), exitCodes.usage);
}

/** A terminal's width; commander's 80 for anything else. */
function helpWidth(stream: CliContext["stdout"]): number {
  const columns = (stream as { columns?: unknown }).columns;
  return stream.isTTY && typeof columns === "number" && columns > 0 ? columns : 80;
}

function register(
  program: Commander,
  command: Command | CommandGroup,
  io: Io,
  setExit: (code: number) => void,
): void {
  if (isCommandGroup(command)) {
    const group = program.command(command.name).description(command.summary);
    for (const sub of command.subcommands) register(group, sub, io, setExit);
    return;
  }
  const sub = program.command(command.name).description(command.summary);
  for (const arg of command.args ?? []) sub.argument(arg.name, arg.description);
  for (const opt of command.options ?? []) {
    const option = new Option(opt.flags, opt.description);
    if (opt.default !== undefined) option.default(opt.default);
    if (opt.choices) option.choices(opt.choices);
    if (opt.required) option.makeOptionMandatory();
    if (opt.repeatable)
      option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    sub.addOption(option);
  }
  if (command.help) sub.addHelpText("after", `\n${command.help}\n`);
  sub.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Commander;
    const options = self.optsWithGlobals() as Record<string, unknown>;
    // A variadic argument (`<grant...>`) arrives as an array: it is flattened into the rest.
    const args = params
      .slice(0, command.args?.length ?? 0)
      .flat()
      .filter((a): a is string => typeof a === "string");
    const context = makeContext(io, options);
    setExit((await command.run(context, args, options)) ?? exitCodes.ok);
  });
}

function makeContext(io: Io, options: Record<string, unknown>): CliContext {
  const cwd = resolve(io.cwd, typeof options.cwd === "string" ? options.cwd : ".");
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory)
    throw new CliError("CLI_ERR_NOT_A_DIRECTORY", `${cwd} is not a directory`, exitCodes.usage);
  return {
    cwd,
    stdout: io.stdout,
    stderr: io.stderr,
    stdin: io.stdin,
    env: io.env,
    color: Boolean(io.stdout.isTTY) && !io.env.NO_COLOR,
    debug: Boolean(options.debug),
    installTransaction: io.installTransaction,
  };
}

/** The bin's entry: the real process's streams, and its exit code. */
export async function runCli(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: quietOnClosedPipe(process.stdout),
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  });
}

/**
 * `hookyard list | head -1` closes our stdout early. Writes after that are dropped, so the
 * command still finishes and cleans up (temp dirs, background hooks) instead of dying on EPIPE.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): CliContext["stdout"] {
  if (stream.isTTY) return stream;
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  // Not a TTY, so readline (the only other user of stdout) needs nothing but write.
  const write = (chunk: string) => (closed ? true : stream.write(chunk));
  return { write, isTTY: false } as unknown as CliContext["stdout"];
}
