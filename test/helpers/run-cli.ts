import { Readable } from "node:stream";
import { type Io, main } from "../../cli/main.js";
import type { CliResult } from "./cli.js";

/**
 * The CLI in this process, on the TypeScript sources (no build needed): for commands that start
 * no sandbox process. `env` replaces the environment entirely (HOME and HOOKYARD_* are never
 * inherited from the machine); `input` is stdin.
 */
export async function runCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    ({ write: (text: string) => into.push(text) > 0 }) as unknown as Io["stdout"];
  const code = await main(args, {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    env: { NO_COLOR: "1", ...options.env },
    cwd: options.cwd,
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}
