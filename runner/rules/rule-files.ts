import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { errorText, type LoadProblem } from "../../core/errors.js";
import { type CompiledRule, compileRuleFile } from "./compile.js";
import { type FormatSpec, formats, type RuleFormat } from "./formats.js";
import { readFrontMatter } from "./front-matter.js";
import { RuleFileError } from "./rule-file-error.js";

/** A rule file is a page of markdown: a larger one is refused, not read. */
export const maxRuleFileBytes = 64 * 1024;
/** Rule files read from one folder, in name order; the others are ignored, and that is reported. */
export const maxRuleFiles = 256;

interface Entry {
  /** Inode, size, mtime and ctime: a file whose signature is unchanged is not read again. */
  signature: string;
  rule?: CompiledRule;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The rule files of one folder, re-read when they change. Each `refresh` lists the folder and stats
 * the files (synchronously on purpose: a few stats cost less than the promises around them, and keep
 * the dispatcher on its synchronous path); only a file whose signature changed is read and compiled
 * again. A file that fails is left out, the others still apply.
 */
export class RuleFiles {
  private readonly spec: FormatSpec;
  private entries = new Map<string, Entry>();
  private rules: readonly CompiledRule[] = [];
  /** The last folder-level problem, so that one is reported once, not at every event. */
  private folderProblem = "";
  private read = false;

  constructor(
    readonly dir: string,
    readonly format: RuleFormat,
  ) {
    this.spec = formats[format];
  }

  /** The rules as of the last refresh, without reading the folder again (a listing's view); undefined before the first. */
  get lastRead(): readonly CompiledRule[] | undefined {
    return this.read ? this.rules : undefined;
  }

  /**
   * The enabled rules as the files are now, in file name order, and the problems found in this call
   * only: a broken file is reported when it is read, not again until it changes.
   */
  refresh(): { rules: readonly CompiledRule[]; problems: LoadProblem[] } {
    const problems: LoadProblem[] = [];
    this.read = true;
    const names = this.list(problems);
    const next = new Map<string, Entry>();
    let changed = names.length !== this.entries.size;
    for (const name of names) {
      const file = join(this.dir, name);
      let signature: string;
      try {
        const info = statSync(file, { bigint: true });
        if (!info.isFile()) continue;
        signature = `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
      } catch {
        continue; // removed since the listing
      }
      const previous = this.entries.get(name);
      if (previous?.signature === signature) {
        next.set(name, previous);
        continue;
      }
      changed = true;
      const stem = this.spec.files.exec(name)?.[1] ?? name;
      const entry: Entry = { signature };
      let text: string | undefined;
      try {
        text = readRuleFile(file);
        entry.rule = compileRuleFile(text, file, stem, this.spec);
      } catch (error) {
        const code = error instanceof RuleFileError ? error.code : "RUN_ERR_HOOK_LOAD";
        const problem: LoadProblem = {
          name: stem,
          code,
          file,
          message: errorText(error),
          fix: `fix ${file}`,
        };
        if (text !== undefined && !mayBlock(text)) problem.points = [];
        problems.push(problem);
      }
      next.set(name, entry);
    }
    this.entries = next;
    if (changed)
      this.rules = [...next.values()].flatMap((entry) => (entry.rule?.enabled ? [entry.rule] : []));
    return { rules: this.rules, problems };
  }

  /** Rule file names in code-unit order, at most maxRuleFiles; a missing folder holds none. */
  private list(problems: LoadProblem[]): string[] {
    let names: string[];
    let problem = "";
    try {
      names = readdirSync(this.dir)
        .filter((name) => this.spec.files.test(name))
        .sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      names = [];
      if (code !== "ENOENT" && code !== "ENOTDIR")
        problem = `the folder could not be read: ${errorText(error)}`;
    }
    if (names.length > maxRuleFiles) {
      problem = `only the first ${maxRuleFiles} rule files (by name) are read; the other ${names.length - maxRuleFiles} are ignored`;
      names = names.slice(0, maxRuleFiles);
    }
    if (problem && problem !== this.folderProblem) {
      problems.push({
        name: basename(this.dir),
        code: "RUN_ERR_HOOK_LOAD",
        file: this.dir,
        message: problem,
        // The folder, not a rule: the rules that were read still apply.
        setting: true,
      });
    }
    this.folderProblem = problem;
    return names;
  }
}

/** At most maxRuleFileBytes of UTF-8; never blocks on something that is not a regular file. */
function readRuleFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile())
      throw new RuleFileError("RUN_ERR_HOOK_LOAD", "file", "is not a regular file");
    const buffer = Buffer.alloc(maxRuleFileBytes + 1);
    let size = 0;
    while (size < buffer.length) {
      const read = readSync(fd, buffer, size, buffer.length - size, null);
      if (read === 0) break;
      size += read;
    }
    if (size > maxRuleFileBytes) {
      throw new RuleFileError(
        "RUN_ERR_HOOK_INVALID",
        "file",
        `is larger than ${maxRuleFileBytes / 1024} KiB`,
      );
    }
    try {
      return decoder.decode(buffer.subarray(0, size));
    } catch {
      throw new RuleFileError("RUN_ERR_HOOK_INVALID", "file", "is not UTF-8 text");
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a rule file that did not compile may have been a guard: its front matter unreadable, or
 * its action anything but `warn`. A warn rule (the default) never blocked anything, so nothing stands in for it.
 */
function mayBlock(text: string): boolean {
  try {
    const { action } = readFrontMatter(text).fields;
    // A misspelt action ("blok") may well have meant block.
    return action !== undefined && action !== "warn";
  } catch {
    return true;
  }
}
