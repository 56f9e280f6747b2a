import { describe, expect, it } from "vitest";
import { compilePattern, maxInputLength, maxPatternLength, testBounded } from "../../../core/regex.js";
import { toolBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

const bash = (command: string) => toolBefore({ args: { command } });

describe("rules: regexes cannot hang the agent", () => {
  it("a pattern that repeats a repeating group is refused at load, naming the field", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/nested.md": ruleFile(
        "event: bash\nconditions:\n  - field: command\n    pattern: ^(a+)+$",
      ),
      ".hookyard/rules/tool.md": ruleFile("event: tool_before\nmatcher: (\\w*)*x"),
    });
    expect(hooks.problems.map((p) => [p.name, p.code, p.message.split(":")[0]])).toEqual([
      ["nested", "RUN_ERR_BAD_MATCHER", "conditions[0].pattern"],
      ["tool", "RUN_ERR_BAD_MATCHER", "matcher"],
    ]);
  });

  it("a catastrophic pattern that passes the load check is stopped within its budget; its block applies (fails closed), every time", async () => {
    const { hooks, logger } = await rulesWorkspace({
      // Polynomial, not exponential, so it passes the load check: 8 stars try C(48, 8) splits of 40 characters.
      ".hookyard/rules/a-slow.md": ruleFile(
        "event: bash\naction: block\npattern: ^\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*;$",
        "slow",
      ),
      ".hookyard/rules/b-fast.md": ruleFile("event: bash\naction: block\npattern: ^aaa", "fast"),
    });
    const evil = `${"a".repeat(40)}!`; // billions of paths for the slow pattern
    const started = performance.now();
    const outcome = await hooks.dispatch("tool_before", bash(evil));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(outcome.blockedBy?.reason).toBe(
      "[a-slow] slow\n(hookyard could not check this rule within 50 ms on this input, so it applies.)\n\n[b-fast] fast",
    );
    expect(logger.infos.filter((line) => line.includes("a-slow.md"))).toEqual([
      expect.stringMatching(
        /rule "a-slow" .*: pattern took more than 50 ms on this input and was stopped; it blocks, to be safe/,
      ),
    ]);

    // A slow input never switches the rule off: the next event is checked (and blocked) again.
    const again = performance.now();
    const second = await hooks.dispatch("tool_before", bash(evil));
    expect(performance.now() - again).toBeLessThan(2_000);
    expect(second.blockedBy?.reason).toContain("[a-slow] slow");
    const plain = await hooks.dispatch("tool_before", bash("ls"));
    expect(plain.verdict).toBe("allow");
  });

  it("a pattern longer than the cap is refused; a regex sees only the start of a huge field, string operators all of it", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/long.md": ruleFile(`event: bash\npattern: '${"x".repeat(maxPatternLength + 1)}'`),
      ".hookyard/rules/regex.md": ruleFile("event: bash\npattern: SECRET", "regex"),
      ".hookyard/rules/contains.md": ruleFile(
        "event: bash\nconditions:\n  - field: command\n    operator: contains\n    pattern: SECRET",
        "contains",
      ),
    });
    expect(hooks.problems.map((p) => p.message)).toEqual([
      `pattern: is ${maxPatternLength + 1} characters long; at most ${maxPatternLength} are allowed`,
    ]);
    const outcome = await hooks.dispatch("tool_before", bash(`${" ".repeat(maxInputLength)}SECRET`));
    expect(outcome.notices.map((n) => n.text)).toEqual(["[contains] contains"]);
  });
});

describe("compilePattern: the nested-quantifier check", () => {
  it.each([
    "rm\\s+-rf",
    "(foo|bar)+",
    "[(a+)]+",
    "\\(a+\\)+",
    "(?<=x)y+",
    "(\\d{3})+",
    "^(bash|write_file)$",
    "(\\s|,)+",
    "(\\d+\\.){3}\\d+",
    "(\\d{1,3}\\.){3}\\d{1,3}",
    "(A|a)+",
    "mcp__.*__write",
  ])("accepts %s", (pattern) => {
    expect(compilePattern(pattern, "")).toBeInstanceOf(RegExp);
  });

  it.each([
    "(a+)+",
    "(a*)*",
    "(?:x+y)*",
    "((a)+b)+",
    "(a{1,5})+",
    "(a+)+?",
    "(a+){2,}",
    "(?<n>\\s*)+",
    "(a?)+",
    "(aa?)+$",
    "^(\\w+\\s?)*$",
    "(a+){30}",
  ])("refuses %s", (pattern) => {
    expect(compilePattern(pattern, "")).toMatch(/repeats a group that itself repeats/);
  });

  it.each([
    ["^(a|a)*$", ""],
    ["(a|ab)+", ""],
    ["(\\w|_)+", ""],
    ["(x|\\d|[0-9])*", ""],
    ["(A|a)+", "i"],
  ])("refuses %s (flags %j): a repeated choice whose branches can start alike", (pattern, flags) => {
    expect(compilePattern(pattern, flags)).toMatch(
      /repeats a choice whose branches can start with the same character/,
    );
  });

  it("refuses alternatives repeated by a count into more than a million paths", () => {
    expect(compilePattern("(a|b){30}", "")).toMatch(/has more than 1000000 ways to match/);
    expect(compilePattern("(a|b){10}", "")).toBeInstanceOf(RegExp);
  });

  it("refuses what is not a JavaScript regex, saying so", () => {
    expect(compilePattern("(?i)rm", "")).toMatch(/^is not a valid JavaScript regular expression/);
  });
});

describe("testBounded: the run-time half of the policy", () => {
  it("answers plain tests directly and correctly, on short and cut texts", () => {
    const names = compilePattern("^(bash|write_file)$") as RegExp;
    expect([testBounded(names, "bash"), testBounded(names, "read_file")]).toEqual([true, false]);
    const rm = compilePattern("rm\\s+-rf") as RegExp;
    expect(testBounded(rm, `${"x".repeat(5_000)} rm  -rf`)).toBe(true);
    expect(testBounded(rm, `${" ".repeat(maxInputLength)}rm -rf`)).toBe(false); // past the cut
  });

  it("runs a regex the policy did not compile within the budget, whatever its shape", () => {
    const started = performance.now();
    expect(testBounded(/(a+)+$/, `${"a".repeat(40)}!`)).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
