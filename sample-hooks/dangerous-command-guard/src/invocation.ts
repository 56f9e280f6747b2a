import type { SimpleCommand, Word } from "./shell-syntax.js";

/** The program a simple command runs, past `sudo`, `env`, `FOO=bar` and the like, with its arguments. */
export interface Invocation {
  /** The program's base name: `/usr/bin/rm` and `\rm` are both `rm`. */
  name: string;
  args: Word[];
}

/** Words that open or close a compound command; the program is the word after them. */
const reservedWords = new Set(["!", "{", "}", "if", "then", "elif", "else", "do", "while", "until"]);

/**
 * Programs that run the command given in their arguments, with the options of theirs that take a
 * value (so that value is not mistaken for the command).
 */
const wrappers: Record<string, { valued: readonly string[]; followedBy?: "assignments" | "duration" }> = {
  sudo: { valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U", "-R"] },
  doas: { valued: ["-u", "-C"] },
  env: { valued: ["-u", "-C", "-S", "--unset", "--chdir", "--split-string"], followedBy: "assignments" },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "-o", "--format", "--output"] },
  exec: { valued: ["-a"] },
  command: { valued: [] },
  builtin: { valued: [] },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], followedBy: "duration" },
  busybox: { valued: [] },
};

const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The index of the first word after a program's options (`--` included), given its options that take a value. */
export function afterOptions(words: readonly Word[], from: number, valued: readonly string[]): number {
  let i = from;
  while (i < words.length) {
    const text = words[i]?.text ?? "";
    if (text === "--") return i + 1;
    if (!text.startsWith("-") || text === "-") return i;
    i += valued.includes(text) ? 2 : 1;
  }
  return i;
}

export function invocationOf(command: SimpleCommand): Invocation | undefined {
  const words = command.words;
  let i = 0;
  while (i < words.length) {
    const text = words[i]?.text ?? "";
    if (text === "function") {
      // `function name { … }`: the name is not a program.
      i += 2;
      continue;
    }
    if (reservedWords.has(text) || assignment.test(text)) {
      i++;
      continue;
    }
    const name = baseName(text);
    const wrapper = wrappers[name];
    // `command -v rm` only looks rm up.
    if (!wrapper || (name === "command" && /^-[a-zA-Z]*[vV]/.test(words[i + 1]?.text ?? ""))) {
      return { name, args: words.slice(i + 1) };
    }
    i = afterOptions(words, i + 1, wrapper.valued);
    if (wrapper.followedBy === "assignments") while (assignment.test(words[i]?.text ?? "")) i++;
    if (wrapper.followedBy === "duration") i++;
  }
  return undefined;
}
