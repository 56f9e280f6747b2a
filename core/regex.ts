import { createContext, Script } from "node:vm";

/**
 * The one regex policy. Every pattern that reaches hookyard from outside its own code (a hook's or a
 * package manifest's matcher, a hookyard.json entry or override, a rule file, a coding agent's
 * settings or plugin matcher) is compiled by `compilePattern` and run by `testBounded` or
 * `runBounded`, so none can stall the agent's process: a pattern is a line, not a program.
 *
 * - At compile: too long, not a JavaScript regex, or one of the shapes that backtrack exponentially
 *   on a near miss is refused, with the reason.
 * - At run: a text is cut to `maxInputLength`; a test whose worst case is provably small (its shape
 *   and the text's length bound the backtracking steps) runs as it is; any other runs in a VM script
 *   with a time budget. The common case (a tool name, a short pattern on an argument) never pays for
 *   the budget's watchdog, which costs a thread start per call.
 *
 * V8's regex engine backtracks; RE2 (the npm `re2` package) would not, but it has no prebuilt binary
 * that installs without a download, and compiling it needs a C++ toolchain on every machine.
 */

/** A pattern is a line, not a program: longer ones are refused. */
export const maxPatternLength = 1_000;
/** A regex sees at most this much of a field; commands, paths and edits fit, whole files are cut. */
export const maxInputLength = 100_000;
/** The time one bounded run of regex tests may take before the test running is stopped. */
export const matchBudgetMs = 50;
/** Ways one place of the text can be matched, whatever the text (`(a|b){30}` has 2^30): past this, refused. */
export const maxPaths = 1_000_000;
/**
 * A test whose worst case is at most this many backtracking steps runs without a watchdog. Measured
 * here: \s+x on 1,100 spaces (an estimate of 4.8e6) takes 0.7 ms, so this is a few ms at worst,
 * well under the budget; \s+-rf on a 1 kB argument runs directly, on a 5 kB one with the budget.
 */
const directSteps = 10_000_000;
/** How often a part that repeats without end may recur inside a counted repeat: (\d+\.){3} yes, (a+){30} no. */
const maxCountedRepeats = 4;

/**
 * Compiles a pattern, or returns why it cannot be used (a phrase that follows "the pattern …"): too
 * long, not a JavaScript regex, or exponential on some input: a repeated group that itself repeats
 * ("(a+)+", "(?:x*y)*", "(ab?)+"), a repeated choice whose branches can start alike ("(a|a)*",
 * "(\w|_)+"), or alternatives repeated by a count into too many paths ("(a|b){30}"). Slow shapes
 * this does not see (polynomial ones like "\w*\w*\w*!") are stopped by the budget of a bounded run.
 */
export function compilePattern(pattern: string, flags = ""): RegExp | string {
  if (pattern.length > maxPatternLength) {
    return `is ${pattern.length} characters long; at most ${maxPatternLength} are allowed`;
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, flags);
  } catch (error) {
    return `is not a valid JavaScript regular expression (${(error as Error).message})`;
  }
  let shape: Shape;
  try {
    shape = measure(new Parser(pattern, flags).parse(), flags.includes("i"));
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    throw error;
  }
  shape.length = Math.max(pattern.length, 1);
  shape.sticky = flags.includes("g") || flags.includes("y");
  shapes.set(regex, shape);
  return regex;
}

/** Why the policy refuses `pattern`, or undefined: for checks that need no RegExp (publish, pack). */
export function patternIssue(pattern: string, flags = ""): string | undefined {
  const compiled = compilePattern(pattern, flags);
  return typeof compiled === "string" ? compiled : undefined;
}

export interface RegexTest {
  regex: RegExp;
  text: string;
}

/** One test's answer: whether it matched, or that it ran out of the budget and was stopped. */
export type BoundedAnswer = boolean | "timeout";

/** Runs one test: directly when its worst case is small, else within the budget. */
export function testBounded(regex: RegExp, text: string): BoundedAnswer {
  const cut = text.length > maxInputLength ? text.slice(0, maxInputLength) : text;
  if (isCheap(regex, cut.length)) return regex.test(cut);
  return runInBudget([{ regex, text: cut }])[0] as BoundedAnswer;
}

/**
 * Runs regex tests in order, each as `testBounded` would. The ones that need a budget run as one
 * script with a timeout: V8 cannot bound one regex, but it can interrupt a script. A test that runs
 * out of time answers "timeout" and the others still run (each restart gets the budget again).
 */
export function runBounded(tests: readonly RegexTest[]): BoundedAnswer[] {
  const results: BoundedAnswer[] = [];
  const slow: RegexTest[] = [];
  const slowAt: number[] = [];
  for (const [at, { regex, text }] of tests.entries()) {
    const cut = text.length > maxInputLength ? text.slice(0, maxInputLength) : text;
    if (isCheap(regex, cut.length)) results[at] = regex.test(cut);
    else {
      slow.push({ regex, text: cut });
      slowAt.push(at);
    }
  }
  if (slow.length > 0) {
    for (const [k, answer] of runInBudget(slow).entries()) results[slowAt[k] as number] = answer;
  }
  return results;
}

// ---- run time

/** What compilePattern learnt of a pattern, to bound the cost of one test. */
interface Shape {
  /** log(ways one place can be matched, whatever the text): alternatives, fixed repeats of them. */
  logPaths: number;
  /** Unbounded quantifiers (* + {n,}) and backreferences, each counted as often as it recurs at one place: each costs up to the text's length. */
  unbounded: number;
  length: number;
  /** g and y flags make `test` stateful; such a regex always runs in the script, which resets nothing either way. */
  sticky: boolean;
}

/** Shapes of the regexes this policy compiled; a regex it did not compile always runs within the budget. */
const shapes = new WeakMap<RegExp, Shape>();
const logDirect = Math.log(directSteps);

/**
 * Whether a test's worst case is at most `directSteps`: start places × pattern length × paths ×
 * the counts each variable quantifier can try (at most the text's length each). Patterns this
 * policy accepts have no nested or ambiguous repetition, so this product bounds the backtracking.
 */
function isCheap(regex: RegExp, textLength: number): boolean {
  const shape = shapes.get(regex);
  if (shape === undefined || shape.sticky) return false;
  const places = textLength + 1;
  // Most matchers (names, literals, short patterns) settle here without a logarithm.
  if (shape.unbounded === 0 && shape.logPaths === 0) return places * shape.length <= directSteps;
  return Math.log(places) * (1 + shape.unbounded) + Math.log(shape.length) + shape.logPaths <= logDirect;
}

type Scope = { tests: readonly RegexTest[]; results: BoundedAnswer[]; at: number };

// One context and one compiled loop for the process: the cost of a call is the timer, not a compile.
const scope = createContext({ tests: [], results: [], at: 0 } satisfies Scope) as Scope;
const loop = new Script(
  "for (; at < tests.length; at++) results[at] = tests[at].regex.test(tests[at].text);",
);

function runInBudget(tests: readonly RegexTest[]): BoundedAnswer[] {
  const results: BoundedAnswer[] = [];
  scope.tests = tests;
  scope.results = results;
  scope.at = 0;
  try {
    while (scope.at < tests.length) {
      try {
        loop.runInContext(scope, { timeout: matchBudgetMs });
      } catch (error) {
        if ((error as { code?: string }).code !== "ERR_SCRIPT_EXECUTION_TIMEOUT") throw error;
        results[scope.at] = "timeout";
        scope.at++;
      }
    }
  } finally {
    // Texts can be large: the shared scope keeps none of them between events.
    scope.tests = [];
    scope.results = [];
  }
  return results;
}

// ---- compile time: a small parser of JavaScript regex syntax, enough to see the shape

class Refusal extends Error {}

const nestedReason =
  "repeats a group that itself repeats or has an optional part (like (a+)+ or (ab?)*), which can take exponential time on a near miss; repeat the inner part only, or make it fixed";
const overlapReason =
  "repeats a choice whose branches can start with the same character (like (a|a)* or (\\w|_)+), which can take exponential time on a near miss; use a character class ([\\w_]+) or branches that start differently";
const pathsReason = `has more than ${maxPaths} ways to match at one place (alternatives repeated by a count, like (a|b){30}), which takes exponential time; shorten the count or use a character class`;

/** The first character a node can match: a set of characters and classes, or anything. */
interface First {
  any: boolean;
  chars: Set<string>;
  classes: Set<string>;
}

type Node =
  | { type: "alt"; branches: Node[] }
  | { type: "seq"; items: Node[] }
  | { type: "char"; char: string }
  | { type: "class"; name: string }
  | { type: "any" }
  | { type: "assert" }
  | { type: "group"; body: Node; lookaround: boolean }
  | { type: "repeat"; body: Node; min: number; max: number }
  | { type: "backref" };

/** Parses a pattern that `new RegExp` has already accepted: structure only, no validation. */
class Parser {
  private i = 0;
  private readonly unicode: boolean;
  private readonly sets: boolean;
  constructor(
    private readonly src: string,
    flags: string,
  ) {
    this.unicode = flags.includes("u") || flags.includes("v");
    this.sets = flags.includes("v");
  }

  parse(): Node {
    const node = this.alternation();
    return node;
  }

  private alternation(): Node {
    const branches = [this.sequence()];
    while (this.src[this.i] === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    return branches.length === 1 ? (branches[0] as Node) : { type: "alt", branches };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== "|" && this.src[this.i] !== ")") {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { type: "seq", items };
  }

  private quantified(atom: Node): Node {
    const { src } = this;
    let min: number;
    let max: number;
    const char = src[this.i];
    if (char === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (char === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (char === "?") [min, max] = [0, 1];
    else if (char === "{") {
      const range = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.i, this.i + 24));
      if (!range) return atom;
      min = Number(range[1]);
      max = range[2] === undefined ? min : range[3] === "" ? Number.POSITIVE_INFINITY : Number(range[3]);
      this.i += range[0].length - 1;
    } else return atom;
    this.i++;
    if (src[this.i] === "?") this.i++; // lazy: the same paths, in another order
    return { type: "repeat", body: atom, min, max };
  }

  private atom(): Node {
    const { src } = this;
    const char = src[this.i] as string;
    if (char === "(") return this.group();
    if (char === "[") {
      this.skipClass();
      return { type: "any" };
    }
    if (char === "\\") return this.escape();
    this.i++;
    if (char === ".") return { type: "any" };
    if (char === "^" || char === "$") return { type: "assert" };
    return { type: "char", char };
  }

  private group(): Node {
    const { src } = this;
    this.i++;
    let lookaround = false;
    if (src[this.i] === "?") {
      const next = src[this.i + 1];
      if (next === "=" || next === "!") {
        lookaround = true;
        this.i += 2;
      } else if (next === "<" && (src[this.i + 2] === "=" || src[this.i + 2] === "!")) {
        lookaround = true;
        this.i += 3;
      } else if (next === "<") {
        this.i = src.indexOf(">", this.i) + 1; // (?<name>
      } else {
        this.i = src.indexOf(":", this.i) + 1; // (?: and modifiers like (?i:
      }
    }
    const body = this.alternation();
    this.i++; // ")"
    return { type: "group", body, lookaround };
  }

  private skipClass(): void {
    const { src } = this;
    let depth = 0;
    this.i++;
    if (src[this.i] === "^") this.i++;
    for (; this.i < src.length; this.i++) {
      const char = src[this.i];
      if (char === "\\") this.i++;
      else if (char === "[" && this.sets) depth++;
      else if (char === "]") {
        if (depth === 0) break;
        depth--;
      }
    }
    this.i++;
  }

  private escape(): Node {
    const { src } = this;
    const char = src[this.i + 1] as string;
    this.i += 2;
    if (char === "b" || char === "B") return { type: "assert" };
    if ("dDwWsS".includes(char)) return { type: "class", name: char };
    if (/[1-9]/.test(char)) {
      while (/\d/.test(src[this.i] ?? "")) this.i++;
      return { type: "backref" };
    }
    if (char === "k" && src[this.i] === "<") {
      this.i = src.indexOf(">", this.i) + 1;
      return { type: "backref" };
    }
    if ((char === "p" || char === "P") && this.unicode && src[this.i] === "{") {
      this.i = src.indexOf("}", this.i) + 1;
      return { type: "any" };
    }
    if (char === "u" && this.unicode && src[this.i] === "{") {
      const end = src.indexOf("}", this.i);
      const code = Number.parseInt(src.slice(this.i + 1, end), 16);
      this.i = end + 1;
      return { type: "char", char: String.fromCodePoint(code) };
    }
    if (char === "u" && /^[\da-fA-F]{4}/.test(src.slice(this.i, this.i + 4))) {
      const code = Number.parseInt(src.slice(this.i, this.i + 4), 16);
      this.i += 4;
      return { type: "char", char: String.fromCharCode(code) };
    }
    if (char === "x" && /^[\da-fA-F]{2}/.test(src.slice(this.i, this.i + 2))) {
      const code = Number.parseInt(src.slice(this.i, this.i + 2), 16);
      this.i += 2;
      return { type: "char", char: String.fromCharCode(code) };
    }
    if (char === "c" && /[A-Za-z]/.test(src[this.i] ?? "")) {
      this.i++;
      return { type: "any" };
    }
    const named: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };
    return { type: "char", char: named[char] ?? char };
  }
}

/**
 * Walks the tree: refuses what is exponential, and measures the rest. `times` is how often the node
 * recurs at one place: the product of the counts of the repeats around it (Infinity under * + {n,}).
 */
function measure(root: Node, caseless: boolean): Shape {
  const shape: Shape = { logPaths: 0, unbounded: 0, length: 1, sticky: false };
  const walk = (node: Node, times: number): void => {
    switch (node.type) {
      case "alt":
        if (times === Number.POSITIVE_INFINITY) {
          const firsts = node.branches.map((branch) => firstOf(branch, caseless));
          if (firsts.some((a, k) => firsts.slice(k + 1).some((b) => overlaps(a, b)))) {
            throw new Refusal(overlapReason);
          }
        } else {
          shape.logPaths += times * Math.log(node.branches.length);
          if (shape.logPaths > Math.log(maxPaths)) throw new Refusal(pathsReason);
        }
        for (const branch of node.branches) walk(branch, times);
        return;
      case "seq":
        for (const item of node.items) walk(item, times);
        return;
      case "group":
        walk(node.body, times);
        return;
      case "repeat": {
        if (node.max !== node.min) {
          // A part that can take several lengths, inside a part repeated without end: exponential.
          if (times === Number.POSITIVE_INFINITY) throw new Refusal(nestedReason);
          if (node.max === Number.POSITIVE_INFINITY) {
            // (\d+\.){3} is polynomial in the text; (a+){30} is not, in practice.
            if (times > maxCountedRepeats) throw new Refusal(nestedReason);
            shape.unbounded += times;
          } else {
            shape.logPaths += times * Math.log(node.max - node.min + 1);
            if (shape.logPaths > Math.log(maxPaths)) throw new Refusal(pathsReason);
          }
        }
        if (node.max === 0) return;
        walk(node.body, times * node.max);
        return;
      }
      case "backref":
        // Comparing a captured text costs up to its length: count it like an unbounded quantifier.
        shape.unbounded += times === Number.POSITIVE_INFINITY ? 1 : times;
        return;
      default:
        return;
    }
  };
  walk(root, 1);
  return shape;
}

/** The characters `node` can start with; anything when it can match empty (then what follows counts). */
function firstOf(node: Node, caseless: boolean): First {
  const first: First = { any: false, chars: new Set(), classes: new Set() };
  const add = (inner: Node): boolean => {
    // Returns whether `inner` always consumes a character (so what follows it cannot start the match).
    switch (inner.type) {
      case "char":
        first.chars.add(caseless ? inner.char.toLowerCase() : inner.char);
        return true;
      case "class":
        if (inner.name === "d" || inner.name === "w" || inner.name === "s") first.classes.add(inner.name);
        else first.any = true;
        return true;
      case "any":
      case "backref":
      case "assert":
        first.any = true;
        return true;
      case "alt":
        return inner.branches.map(add).every(Boolean);
      case "seq":
        for (const item of inner.items) if (add(item)) return true;
        first.any = true; // all of it can be empty
        return true;
      case "group":
        if (inner.lookaround) first.any = true;
        return inner.lookaround || add(inner.body);
      case "repeat":
        if (inner.max === 0) return false;
        add(inner.body);
        if (inner.min === 0) first.any = true;
        return true;
    }
  };
  add(node);
  return first;
}

const classTests: Record<string, RegExp> = { d: /\d/, w: /\w/, s: /\s/ };

function overlaps(a: First, b: First): boolean {
  if (a.any || b.any) return true;
  for (const char of a.chars) if (b.chars.has(char) || inClasses(char, b.classes)) return true;
  for (const char of b.chars) if (inClasses(char, a.classes)) return true;
  for (const name of a.classes) {
    if (b.classes.has(name) || ((name === "d" || name === "w") && (b.classes.has("d") || b.classes.has("w"))))
      return true;
  }
  return false;
}

function inClasses(char: string, classes: ReadonlySet<string>): boolean {
  for (const name of classes) {
    if ((classTests[name] as RegExp).test(char) || (classTests[name] as RegExp).test(char.toUpperCase()))
      return true;
  }
  return false;
}
