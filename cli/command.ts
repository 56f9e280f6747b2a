import type { InstallTransactionOptions } from "../client/install/transaction.js";

/** What every command gets: where it runs and where it writes. */
export interface CliContext {
  cwd: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Colours only on a TTY, and never with NO_COLOR set. */
  color: boolean;
  debug: boolean;
  /** Test seams for the install transaction, from `main`'s caller (a test's own process); the bin passes none. */
  installTransaction?: InstallTransactionOptions;
}

export interface CommandOption {
  flags: string;
  description: string;
  default?: string | boolean;
  choices?: string[];
  /** The command refuses to run without it (a usage error). */
  required?: boolean;
  /** May be given more than once (`--grant a --grant b`): the value is then a string array. */
  repeatable?: boolean;
}

/** One file per command; usage and help are generated from this metadata. */
export interface Command {
  name: string;
  summary: string;
  /** Positional arguments in commander syntax, e.g. "[prompt]" or "<name>". */
  args?: Array<{ name: string; description: string }>;
  options?: CommandOption[];
  /** Longer help shown after the options. */
  help?: string;
  run(context: CliContext, args: string[], options: Record<string, unknown>): Promise<number | undefined>;
}

/** Commands under a shared name, e.g. `hookyard registry serve`: each subcommand is still one file. */
export interface CommandGroup {
  name: string;
  summary: string;
  subcommands: Array<Command | CommandGroup>;
}

export function isCommandGroup(entry: Command | CommandGroup): entry is CommandGroup {
  return "subcommands" in entry;
}
