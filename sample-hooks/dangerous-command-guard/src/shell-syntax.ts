/**
 * Just enough of bash's grammar to tell commands from data: quotes, escapes, comments, the
 * separators (; & && || | |& newline), redirections, here-documents, subshells, and command and
 * process substitutions (parsed too, since they run). Variables are not expanded. Anything the
 * parser does not know stays part of a word, so an odd command line is checked, never rejected.
 */

/** One word after quote removal; the substitutions inside it are parsed, since they run. */
export interface Word {
  text: string;
  substitutions: Script[];
  /** The word is one `<(…)` or `>(…)`: a path to the output of the script inside. */
  processSubstitution: boolean;
}

export interface Redirect {
  operator: string;
  target: Word;
}

export interface SimpleCommand {
  words: Word[];
  redirects: Redirect[];
  /** Bodies of its here-documents: the command's standard input. */
  heredocs: string[];
  /** A `( … )` subshell stands in the pipeline as one command. */
  subshell?: Script;
}

/** Commands joined by `|`: each one's output is the next one's input. */
export type Pipeline = SimpleCommand[];
export type Script = Pipeline[];

/** Nesting deeper than any real command line: refusing it keeps a hostile one from exhausting the stack. */
const maxNesting = 32;

export class NestingTooDeep extends Error {
  readonly code = "GUARD_ERR_TOO_DEEP";
}

export interface ParsedShell {
  script: Script;
  /** The source with quoted text and here-document bodies blanked out: only what the shell reads as code. */
  code: string;
}

/** `depth` counts the scripts this one is nested in, substitutions and `bash -c`/`eval` alike. */
export function parseShell(source: string, depth = 0): ParsedShell {
  if (depth > maxNesting) throw new NestingTooDeep("the command nests scripts too deeply");
  const data: Span[] = [];
  const script = new ShellParser(source, depth, data).script(undefined);
  let code = "";
  let at = 0;
  // Spans nest ('…' inside "$(…)"): sorted, and each cut to what the previous ones left.
  for (const [start, end] of data.sort((a, b) => a[0] - b[0])) {
    if (end <= at) continue;
    code += source.slice(at, Math.max(at, start)) + " ".repeat(end - Math.max(at, start));
    at = end;
  }
  return { script, code: code + source.slice(at) };
}

/** [start, end) of text in the source that is data, not code. */
type Span = [number, number];

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  command: SimpleCommand;
}

const blank = (c: string | undefined) => c === " " || c === "\t";
const endsWord = (c: string | undefined) =>
  c === undefined ||
  blank(c) ||
  c === "\n" ||
  c === ";" ||
  c === "&" ||
  c === "|" ||
  c === ")" ||
  c === "<" ||
  c === ">";
const newCommand = (): SimpleCommand => ({ words: [], redirects: [], heredocs: [] });

class ShellParser {
  private pos = 0;
  private readonly heredocs: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    private readonly depth: number,
    private readonly data: Span[],
  ) {}

  /** A list of pipelines, up to the end of the text or the `)` that closes a substitution or subshell. */
  script(close: ")" | undefined): Script {
    const script: Script = [];
    let pipeline: Pipeline = [];
    let command = newCommand();
    const endCommand = () => {
      if (command.words.length > 0 || command.redirects.length > 0 || command.subshell)
        pipeline.push(command);
      command = newCommand();
    };
    const endPipeline = () => {
      endCommand();
      if (pipeline.length > 0) script.push(pipeline);
      pipeline = [];
    };
    while (this.pos < this.src.length) {
      const c = this.src[this.pos] as string;
      if (blank(c)) {
        this.pos++;
      } else if (c === "\n") {
        this.pos++;
        this.readHeredocBodies();
        endPipeline();
      } else if (c === "#") {
        while (this.pos < this.src.length && this.src[this.pos] !== "\n") this.pos++;
      } else if (c === ")") {
        this.pos++;
        if (close === ")") break;
        // A stray `)`, as after a `case` pattern: what follows is a new command.
        endPipeline();
      } else if (c === ";" || c === "&" || c === "|") {
        if (this.src.startsWith("&>", this.pos)) {
          command.redirects.push(this.redirect(command));
          continue;
        }
        const two = this.src.slice(this.pos, this.pos + 2);
        const pipe = c === "|" && two !== "||";
        this.pos += two === "&&" || two === "||" || two === ";;" || two === "|&" ? 2 : 1;
        if (pipe) endCommand();
        else endPipeline();
      } else if (c === "(") {
        this.pos++;
        if (this.src[this.skipBlanks(this.pos)] === ")") {
          // `name()`: a function definition; its body follows as commands of their own.
          this.pos = this.skipBlanks(this.pos) + 1;
          endPipeline();
          continue;
        }
        endCommand();
        command.subshell = this.nested(")");
        endCommand();
      } else if ((c === "<" || c === ">") && this.src[this.pos + 1] !== "(") {
        command.redirects.push(this.redirect(command));
      } else {
        const word = this.word();
        if (this.src[this.pos] === ">" || this.src[this.pos] === "<") {
          // `2>file`: a file descriptor number is part of the redirection, not a word.
          if (/^[0-9]+$/.test(word.text)) continue;
        }
        command.words.push(word);
      }
    }
    endPipeline();
    return script;
  }

  private nested(close: ")"): Script {
    if (this.depth + 1 > maxNesting) throw new NestingTooDeep("the command nests scripts too deeply");
    const inner = new ShellParser(this.src, this.depth + 1, this.data);
    inner.pos = this.pos;
    const script = inner.script(close);
    this.pos = inner.pos;
    this.heredocs.push(...inner.heredocs);
    return script;
  }

  private skipBlanks(at: number): number {
    let i = at;
    while (blank(this.src[i])) i++;
    return i;
  }

  /** `>`, `>>`, `>|`, `<`, `<>`, `<<<`, `&>`, `&>>`, `>&`, `<&`, `<<`, `<<-` and the word after it. */
  private redirect(command: SimpleCommand): Redirect {
    const operator =
      /^(?:&>>?|<<<|<<-?|<>|<&|>>|>\||>&|<|>)/.exec(this.src.slice(this.pos, this.pos + 3))?.[0] ?? "";
    this.pos = this.skipBlanks(this.pos + operator.length);
    const c = this.src[this.pos];
    const missing = c === undefined || c === "\n" || c === ";" || c === "|" || c === "&" || c === ")";
    const target = missing ? { text: "", substitutions: [], processSubstitution: false } : this.word();
    // The body starts on the next line: it is read when this one ends.
    if (operator === "<<" || operator === "<<-") {
      this.heredocs.push({ delimiter: target.text, stripTabs: operator === "<<-", command });
    }
    return { operator, target };
  }

  private readHeredocBodies(): void {
    for (const pending of this.heredocs.splice(0)) {
      const lines: string[] = [];
      const start = this.pos;
      while (this.pos < this.src.length) {
        const end = this.src.indexOf("\n", this.pos);
        const line = this.src.slice(this.pos, end < 0 ? undefined : end);
        this.pos = end < 0 ? this.src.length : end + 1;
        if ((pending.stripTabs ? line.replace(/^\t+/, "") : line) === pending.delimiter) break;
        lines.push(line);
      }
      pending.command.heredocs.push(lines.join("\n"));
      this.data.push([start, this.pos]);
    }
  }

  /** One word: runs of plain, quoted and escaped text and substitutions, up to an unquoted separator. */
  private word(): Word {
    const word: Word = { text: "", substitutions: [], processSubstitution: false };
    const start = this.pos;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos] as string;
      if (endsWord(c) && c !== "<" && c !== ">") break;
      if ((c === "<" || c === ">") && this.src[this.pos + 1] === "(") {
        const open = this.pos;
        this.pos += 2;
        word.substitutions.push(this.nested(")"));
        word.text += this.src.slice(open, this.pos);
        word.processSubstitution = open === start && endsWord(this.src[this.pos]);
        continue;
      }
      if (c === "<" || c === ">") break;
      if (c === "(") {
        // `name()` is a function definition, for the script to see; `arr=(a b)` and `@(glob)` are text.
        if (!/[=@?*+!]$/.test(word.text)) break;
        word.text += this.balanced("(", ")");
        continue;
      }
      this.pos++;
      if (c === "\\") {
        const next = this.src[this.pos];
        this.pos++;
        if (next !== undefined && next !== "\n") word.text += next;
      } else if (c === "'") {
        const quote = this.pos - 1;
        word.text += this.until("'");
        this.data.push([quote, this.pos]);
      } else if (c === '"') {
        const quote = this.pos - 1;
        this.doubleQuoted(word);
        this.data.push([quote, this.pos]);
      } else if (c === "`") {
        word.text += `\`${this.backticks(word)}\``;
      } else if (c === "$") {
        this.dollar(word);
      } else {
        word.text += c;
      }
    }
    return word;
  }

  /** Text up to `end` (consumed), or to the end of the source when it never comes. */
  private until(end: string): string {
    const at = this.src.indexOf(end, this.pos);
    const text = this.src.slice(this.pos, at < 0 ? undefined : at);
    this.pos = at < 0 ? this.src.length : at + end.length;
    return text;
  }

  /** `open … close` with nesting, as literal text. */
  private balanced(open: string, close: string): string {
    const start = this.pos;
    let depth = 0;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos++];
      if (c === "\\") this.pos++;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) break;
    }
    return this.src.slice(start, this.pos);
  }

  private doubleQuoted(word: Word): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos++] as string;
      if (c === '"') return;
      if (c === "\\") {
        const next = this.src[this.pos];
        if (next === "$" || next === "`" || next === '"' || next === "\\") {
          word.text += next;
          this.pos++;
        } else if (next === "\n") this.pos++;
        else word.text += c;
      } else if (c === "`") {
        word.text += `\`${this.backticks(word)}\``;
      } else if (c === "$") {
        this.dollar(word);
      } else {
        word.text += c;
      }
    }
  }

  /** After a `$`: `$(…)` is parsed, `${…}` and `$'…'` are kept as text, anything else is a plain `$`. */
  private dollar(word: Word): void {
    const next = this.src[this.pos];
    if (next === "(") {
      const open = this.pos - 1;
      this.pos++;
      word.substitutions.push(this.nested(")"));
      word.text += this.src.slice(open, this.pos);
    } else if (next === "{") {
      word.text += `$${this.balanced("{", "}")}`;
    } else if (next === "'") {
      const quote = this.pos - 1;
      this.pos++;
      let text = "";
      while (this.pos < this.src.length && this.src[this.pos] !== "'") {
        if (this.src[this.pos] === "\\") text += this.src[this.pos++] ?? "";
        text += this.src[this.pos++] ?? "";
      }
      this.pos++;
      word.text += text;
      this.data.push([quote, this.pos]);
    } else {
      word.text += "$";
    }
  }

  /** The inside of `` `…` `` (the opening one already consumed), parsed as a script of its own. */
  private backticks(word: Word): string {
    let inner = "";
    while (this.pos < this.src.length && this.src[this.pos] !== "`") {
      if (this.src[this.pos] === "\\" && this.pos + 1 < this.src.length) this.pos++;
      inner += this.src[this.pos++];
    }
    this.pos++;
    word.substitutions.push(parseShell(inner, this.depth + 1).script);
    return inner;
  }
}
