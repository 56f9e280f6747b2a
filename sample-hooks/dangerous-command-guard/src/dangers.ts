import { afterOptions, type Invocation, invocationOf } from "./invocation.js";
import { describePlace, isDiskDevice, placeOf } from "./places.js";
import { parseShell, type Script, type SimpleCommand, type Word } from "./shell-syntax.js";

/** One dangerous thing a command line does: `what` is the part that does it, `harm` what it would cost. */
export interface Finding {
  verdict: "block" | "ask";
  what: string;
  harm: string;
}

export interface DangerOptions {
  protectedBranches: ReadonlySet<string>;
}

/** Every dangerous thing in a bash command line, including in the scripts it hands to other shells. */
export function findDangers(commandLine: string, options: DangerOptions): Finding[] {
  const findings: Finding[] = [];
  checkSource(commandLine, 0, options, findings);
  return findings;
}

function checkSource(source: string, depth: number, options: DangerOptions, findings: Finding[]): void {
  const { script, code } = parseShell(source, depth);
  if (hasForkBomb(code)) {
    findings.push({
      verdict: "block",
      what: "a fork bomb",
      harm: "it starts processes until the machine stops responding",
    });
  }
  for (const { command, downloadPipedIn } of commandsIn(script)) {
    for (const redirect of command.redirects) {
      if (/^(?:>|>>|>\||&>|&>>|<>)$/.test(redirect.operator) && isDiskDevice(redirect.target.text)) {
        findings.push({
          verdict: "block",
          what: `${redirect.operator} ${redirect.target.text}`,
          harm: "it writes over a disk device, destroying what is on it",
        });
      }
    }
    const invocation = invocationOf(command);
    if (!invocation) continue;
    const finding =
      rmDanger(invocation) ??
      permissionsDanger(invocation) ??
      formatDanger(invocation) ??
      ddDanger(invocation) ??
      gitDanger(invocation, options) ??
      downloadRunDanger(invocation, command, downloadPipedIn);
    if (finding) findings.push(finding);
    for (const code of codeRunBy(invocation, command)) {
      checkSource(code, depth + 1, options, findings);
    }
  }
}

/**
 * Every simple command, including those in subshells and substitutions, and whether a command
 * piped into it downloads something (known once per pipeline: a long pipeline costs linear time).
 */
function* commandsIn(script: Script): Generator<{ command: SimpleCommand; downloadPipedIn: boolean }> {
  for (const pipeline of script) {
    let downloadPipedIn = false;
    for (const command of pipeline) {
      yield { command, downloadPipedIn };
      downloadPipedIn ||= scriptDownloads([[command]]);
      for (const inner of nestedScripts(command)) yield* commandsIn(inner);
    }
  }
}

/** The scripts inside a command that run too: a subshell, command and process substitutions. */
function nestedScripts(command: SimpleCommand): Script[] {
  const words = [...command.words, ...command.redirects.map((r) => r.target)];
  return [...(command.subshell ? [command.subshell] : []), ...words.flatMap((w) => w.substitutions)];
}

function scriptDownloads(script: Script): boolean {
  return script.some((pipeline) =>
    pipeline.some((command) => {
      const invocation = invocationOf(command);
      return (invocation && downloaders.has(invocation.name)) || nestedScripts(command).some(scriptDownloads);
    }),
  );
}

const shown = (invocation: Invocation) => [invocation.name, ...invocation.args.map((w) => w.text)].join(" ");

function rmDanger(invocation: Invocation): Finding | undefined {
  if (invocation.name !== "rm") return undefined;
  let recursive = false;
  let noPreserveRoot = false;
  let optionsEnded = false;
  const operands: string[] = [];
  for (const { text } of invocation.args) {
    if (!optionsEnded && text === "--") optionsEnded = true;
    else if (!optionsEnded && text.startsWith("--")) {
      recursive ||= text === "--recursive";
      noPreserveRoot ||= text === "--no-preserve-root";
    } else if (!optionsEnded && text.length > 1 && text.startsWith("-")) {
      recursive ||= /[rR]/.test(text);
    } else operands.push(text);
  }
  if (!recursive) return undefined;
  if (noPreserveRoot) {
    return {
      verdict: "block",
      what: shown(invocation),
      harm: "--no-preserve-root turns off rm's own refusal to delete /",
    };
  }
  for (const operand of operands) {
    const place = placeOf(operand);
    if (place) {
      return {
        verdict: "block",
        what: shown(invocation),
        harm: `it deletes ${describePlace(place)} (${operand})`,
      };
    }
  }
  return undefined;
}

/** chmod -R 777 /: every file's permissions or owner changed breaks sudo, ssh and the system's programs. */
function permissionsDanger(invocation: Invocation): Finding | undefined {
  if (!["chmod", "chown", "chgrp"].includes(invocation.name)) return undefined;
  const recursive = invocation.args.some(
    (w) => w.text === "--recursive" || (/^-[a-zA-Z]+$/.test(w.text) && w.text.includes("R")),
  );
  if (!recursive) return undefined;
  for (const { text } of invocation.args) {
    const place = placeOf(text);
    if (place === "root" || place === "system") {
      return {
        verdict: "block",
        what: shown(invocation),
        harm: `it changes the ${invocation.name === "chmod" ? "permissions" : "owner"} of ${describePlace(place)} (${text}), which breaks sudo, ssh and the system's own programs`,
      };
    }
  }
  return undefined;
}

/** mkfs and wipefs on a device; on an image file they are harmless. */
function formatDanger(invocation: Invocation): Finding | undefined {
  if (!/^(?:mkfs(?:\..+)?|mke2fs|mkswap|wipefs)$/.test(invocation.name)) return undefined;
  const device = invocation.args.find((w) => isDiskDevice(w.text));
  if (!device) return undefined;
  return {
    verdict: "block",
    what: shown(invocation),
    harm: `it formats ${device.text}, erasing everything on it`,
  };
}

function ddDanger(invocation: Invocation): Finding | undefined {
  if (invocation.name !== "dd") return undefined;
  const output = invocation.args.find((w) => w.text.startsWith("of=") && isDiskDevice(w.text.slice(3)));
  if (!output) return undefined;
  return {
    verdict: "block",
    what: shown(invocation),
    harm: `it writes over the disk device ${output.text.slice(3)}, destroying what is on it`,
  };
}

const gitValued = ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"];

function gitDanger(invocation: Invocation, options: DangerOptions): Finding | undefined {
  if (invocation.name !== "git") return undefined;
  const at = afterOptions(invocation.args, 0, gitValued);
  const subcommand = invocation.args[at]?.text;
  const rest = invocation.args.slice(at + 1);
  if (subcommand === "push") return pushDanger(invocation, rest, options);
  if (subcommand === "reset" && rest.some((w) => w.text === "--hard")) {
    return {
      verdict: "ask",
      what: shown(invocation),
      harm: "git reset --hard throws away every uncommitted change in the working tree, for good",
    };
  }
  return undefined;
}

const pushValued = ["-o", "--push-option", "--repo", "--receive-pack", "--exec"];

function pushDanger(invocation: Invocation, args: Word[], options: DangerOptions): Finding | undefined {
  let force = false;
  let everyBranch = false;
  let deleting = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]?.text ?? "";
    if (text === "--") {
      operands.push(...args.slice(i + 1).map((w) => w.text));
      break;
    }
    const option = text.split("=")[0] ?? "";
    if (text.startsWith("--")) {
      force ||= ["--force", "--force-with-lease", "--mirror"].includes(option);
      everyBranch ||= ["--all", "--branches", "--mirror"].includes(option);
      deleting ||= option === "--delete";
    } else if (text.length > 1 && text.startsWith("-")) {
      force ||= text.includes("f");
      deleting ||= text.includes("d");
    } else {
      operands.push(text);
      continue;
    }
    if (pushValued.includes(text)) i++;
  }
  const protectedNames = [...options.protectedBranches].join(" or ");
  const refspecs = operands.slice(1);
  let unnamed = refspecs.length === 0 && !everyBranch;
  for (const refspec of refspecs) {
    const plus = refspec.startsWith("+");
    const spec = plus ? refspec.slice(1) : refspec;
    const colon = spec.indexOf(":");
    const source = colon < 0 ? spec : spec.slice(0, colon);
    const branch = (colon < 0 ? spec : spec.slice(colon + 1)).replace(/^refs\/heads\//, "");
    if (options.protectedBranches.has(branch)) {
      if (deleting || (colon >= 0 && source === "")) {
        return {
          verdict: "block",
          what: shown(invocation),
          harm: `it deletes the protected branch ${branch} on the remote`,
        };
      }
      if (force || plus) {
        return {
          verdict: "block",
          what: shown(invocation),
          harm: `it force-pushes to the protected branch ${branch}, rewriting history others build on; push a new branch and open a pull request instead`,
        };
      }
    }
    unnamed ||= branch === "HEAD" || branch === "@";
  }
  if (force && everyBranch) {
    return {
      verdict: "block",
      what: shown(invocation),
      harm: `it force-pushes every branch, ${protectedNames} included`,
    };
  }
  if (force && unnamed) {
    return {
      verdict: "ask",
      what: shown(invocation),
      harm: `it force-pushes the current branch, which may be ${protectedNames}; name the branch to push`,
    };
  }
  return undefined;
}

const downloaders = new Set(["curl", "wget"]);
const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);

/** Interpreters, and the option pattern by which each takes its program inline rather than from a file or stdin. */
function inlineOption(name: string): RegExp | undefined {
  if (shells.has(name)) return /^-[a-zA-Z]*c/;
  if (/^python[0-9.]*$/.test(name)) return /^-[a-zA-Z]*[cm]/;
  if (name === "perl" || name === "ruby") return /^-[a-zA-Z]*[eE]/;
  if (name === "node") return /^(?:-[a-zA-Z]*[ep]|--eval|--print)/;
  return undefined;
}

const shellValued = ["-o", "-O", "+o", "+O", "--rcfile", "--init-file"];

/** Where an interpreter takes its program from: a word given inline (`-c`), a file operand, or stdin. */
function programOf(invocation: Invocation): { inline?: Word; file?: Word; stdin: boolean } | undefined {
  const inline = inlineOption(invocation.name);
  if (!inline) return undefined;
  const args = invocation.args;
  let i = 0;
  let hasInline = false;
  let forcedStdin = false;
  for (; i < args.length; i++) {
    const text = args[i]?.text ?? "";
    if (text === "--") {
      i++;
      break;
    }
    if (!/^[-+]./.test(text)) break;
    hasInline ||= inline.test(text);
    forcedStdin ||= shells.has(invocation.name) && /^-[a-zA-Z]*s/.test(text);
    if (shellValued.includes(text)) i++;
  }
  const operand = args[i];
  if (hasInline) return operand ? { inline: operand, stdin: false } : { stdin: false };
  if (forcedStdin || !operand || operand.text === "-") return { stdin: true };
  return { file: operand, stdin: false };
}

const wordDownloads = (word: Word | undefined) => word?.substitutions.some(scriptDownloads) ?? false;

/** curl … | sh, bash <(curl …), sh -c "$(curl …)", eval "$(curl …)": code from the network, run unread. */
function downloadRunDanger(
  invocation: Invocation,
  command: SimpleCommand,
  downloadPipedIn: boolean,
): Finding | undefined {
  const program = programOf(invocation);
  const runsDownload = program
    ? (program.stdin &&
        (downloadPipedIn ||
          command.redirects.some(
            (r) => (r.operator === "<" || r.operator === "<<<") && wordDownloads(r.target),
          ))) ||
      (program.file?.processSubstitution === true && wordDownloads(program.file)) ||
      wordDownloads(program.inline)
    : invocation.name === "eval"
      ? invocation.args.some(wordDownloads)
      : (invocation.name === "source" || invocation.name === ".") && wordDownloads(invocation.args[0]);
  if (!runsDownload) return undefined;
  return {
    verdict: "block",
    what: `a download run by ${invocation.name}`,
    harm: "it runs code fetched from the network without anyone reading it; download it to a file, read it, then run that file if it is what you expect",
  };
}

/** The shell code a command hands to another shell: `bash -c '…'`, `eval …`, a here-document fed to `sh`. */
function codeRunBy(invocation: Invocation, command: SimpleCommand): string[] {
  if (invocation.name === "eval") return [invocation.args.map((w) => w.text).join(" ")];
  if (!shells.has(invocation.name)) return [];
  const program = programOf(invocation);
  if (program?.inline) return [program.inline.text];
  if (!program?.stdin) return [];
  const hereStrings = command.redirects.filter((r) => r.operator === "<<<").map((r) => r.target.text);
  return [...command.heredocs, ...hereStrings];
}

/**
 * `:(){ :|:& };:` and its renamed variants: a function whose body calls itself at least twice,
 * piped or in the background. Found by scanning for `() {`, not by one big regex, so a long
 * command costs linear time.
 */
function hasForkBomb(text: string): boolean {
  const definitions = [
    ...[...text.matchAll(/\(\s*\)\s*\{/g)].map((m) => ({
      name: nameBefore(text, m.index),
      bodyStart: m.index + m[0].length,
    })),
    ...[...text.matchAll(/\bfunction\s+([^\s(){}|;&<>]{1,64})\s*\{/g)].map((m) => ({
      name: m[1],
      bodyStart: m.index + m[0].length,
    })),
  ];
  for (const { name, bodyStart } of definitions) {
    if (!name) continue;
    // A bounded look, not a search to the end: many unclosed `() {` must not cost quadratic time.
    const nearby = text.slice(bodyStart, bodyStart + 256);
    const close = nearby.indexOf("}");
    const body = close < 0 ? nearby : nearby.slice(0, close);
    const calls = body.split(/[\s|&;(){}<>]+/).filter((token) => token === name).length;
    if (calls >= 2 && /[|&]/.test(body)) return true;
  }
  return false;
}

/** The word before `()`, skipping blanks: the function's name. */
function nameBefore(text: string, end: number): string | undefined {
  let start = end;
  while (start > 0 && /\s/.test(text[start - 1] ?? "")) start--;
  const nameEnd = start;
  while (start > 0 && nameEnd - start < 64 && !/[\s(){}|;&<>]/.test(text[start - 1] ?? "")) start--;
  return nameEnd > start ? text.slice(start, nameEnd) : undefined;
}
