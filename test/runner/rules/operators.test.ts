import { describe, expect, it } from "vitest";
import { toolBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

const bash = (command: string) => toolBefore({ args: { command } });

describe("rules: operators", () => {
  it.each([
    ["regex_match", "rm\\s+-rf", "rm  -rf /", "rm -r /"],
    ["contains", "--force", "git push --force origin", "git push origin"],
    ["equals", "ls", "ls", "ls -la"],
    ["not_contains", "--dry-run", "terraform apply", "terraform apply --dry-run"],
    ["starts_with", "sudo ", "sudo rm x", "echo sudo x"],
    ["ends_with", "| sh", "curl https://x | sh", "curl https://x | sh > out"],
  ])("%s tests the field: it matches %j's command and not the other", async (operator, pattern, yes, no) => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/check.md": ruleFile(
        `event: bash\nconditions:\n  - field: command\n    operator: ${operator}\n    pattern: '${pattern}'`,
        "Careful.",
      ),
    });
    expect((await hooks.dispatch("tool_before", bash(yes))).notices).toEqual([
      { hook: "rules", text: "[check] Careful." },
    ]);
    expect((await hooks.dispatch("tool_before", bash(no))).notices).toEqual([]);
  });

  it("string operators are case-sensitive and literal: a regex character is just a character", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/literal.md": ruleFile(
        "event: bash\nconditions:\n  - field: command\n    operator: contains\n    pattern: 'a.b'",
      ),
    });
    expect((await hooks.dispatch("tool_before", bash("echo a.b"))).notices).toHaveLength(1);
    expect((await hooks.dispatch("tool_before", bash("echo axb"))).notices).toEqual([]);
    expect((await hooks.dispatch("tool_before", bash("echo A.B"))).notices).toEqual([]);
  });

  it("a condition without an operator is a regex_match, and `pattern` alone tests the event's main field", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/short.md": ruleFile("event: bash\npattern: chmod\\s+777"),
      ".hookyard/rules/no-operator.md": ruleFile(
        "event: bash\nconditions:\n  - field: command\n    pattern: ^curl",
      ),
    });
    const chmod = await hooks.dispatch("tool_before", bash("chmod 777 x"));
    expect(chmod.notices.map((n) => n.text)).toEqual(["[short] Rule message."]);
    const curl = await hooks.dispatch("tool_before", bash("curl x"));
    expect(curl.notices.map((n) => n.text)).toEqual(["[no-operator] Rule message."]);
  });
});

describe("rules: every condition must hold", () => {
  const envKey = ruleFile(
    [
      "event: file",
      "conditions:",
      "  - field: file_path",
      "    operator: regex_match",
      "    pattern: \\.env$",
      "  - field: new_text",
      "    operator: contains",
      "    pattern: API_KEY",
    ].join("\n"),
    "Keep keys out of .env files that are committed.",
  );
  const write = (path: string, content: string) =>
    toolBefore({ tool: "write_file", args: { path, content } });

  it("matches only when all conditions hold, not when one of them does", async () => {
    const { hooks } = await rulesWorkspace({ ".hookyard/rules/env-key.md": envKey });
    expect((await hooks.dispatch("tool_before", write(".env", "API_KEY=1"))).notices).toHaveLength(1);
    expect((await hooks.dispatch("tool_before", write(".env", "DEBUG=1"))).notices).toEqual([]);
    expect((await hooks.dispatch("tool_before", write("notes.txt", "API_KEY=1"))).notices).toEqual([]);
  });

  it("a field the event does not carry fails every operator, not_contains too", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/no-sudo.md": ruleFile(
        "event: all\nconditions:\n  - field: command\n    operator: not_contains\n    pattern: sudo",
      ),
    });
    expect((await hooks.dispatch("tool_before", bash("ls"))).notices).toHaveLength(1);
    expect((await hooks.dispatch("tool_before", write("a.txt", "x"))).notices).toEqual([]);
    expect(
      (await hooks.dispatch("turn_before", { sessionId: "s1", prompt: "hi", history: [] })).notices,
    ).toEqual([]);
  });

  it("a rule without conditions matches every event it names", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/remind.md": ruleFile("event: stop", "Did you run the tests?"),
    });
    const outcome = await hooks.dispatch("turn_after", {
      sessionId: "s1",
      answer: "done",
      messages: [],
    });
    expect(outcome.notices.map((n) => n.text)).toEqual(["[remind] Did you run the tests?"]);
  });
});
