import { spawn } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./cli.js";

const shellWord = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * The real `hookyard` bin on a pseudo-terminal (util-linux `script`), as a person at a terminal
 * runs it: stdin and stderr are a TTY, so it asks its questions. `typed` is written at once, before
 * any question is shown (type-ahead). The output is what the terminal showed: stdout, stderr and
 * the echo of what was typed, with the terminal's \r\n made \n.
 */
export function onTerminal(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; typed: string },
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, join(repoRoot, "bin", "hookyard.js"), ...args].map(shellWord).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: "pipe",
    });
    let screen = "";
    child.stdout.on("data", (chunk: Buffer) => {
      screen += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      screen += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, screen: screen.replaceAll("\r\n", "\n") }));
    child.stdin.on("error", () => {});
    // Left open: an end of input would reach the command as Ctrl-D.
    child.stdin.write(options.typed);
    child.on("exit", () => child.stdin.end());
  });
}
