import { execFileSync } from "node:child_process";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { maxRuleFiles } from "../../../runner/rules/rule-files.js";
import { toolBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

const bash = (command: string) => toolBefore({ args: { command } });
const texts = (outcome: { notices: Array<{ text: string }> }) => outcome.notices.map((n) => n.text);

describe("rules: files are re-read when they change", () => {
  it("a changed file takes effect on the next dispatch, even one of the same size", async () => {
    const { root, hooks } = await rulesWorkspace({
      ".hookyard/rules/guard.md": ruleFile("event: bash\npattern: aaa", "first"),
    });
    const file = join(root, ".hookyard/rules/guard.md");
    expect(texts(await hooks.dispatch("tool_before", bash("aaa")))).toEqual(["[guard] first"]);

    await writeFile(file, ruleFile("event: bash\npattern: bbb", "other"));
    expect(texts(await hooks.dispatch("tool_before", bash("aaa")))).toEqual([]);
    expect(texts(await hooks.dispatch("tool_before", bash("bbb")))).toEqual(["[guard] other"]);

    await writeFile(file, ruleFile("event: bash\naction: block\npattern: bbb", "other"));
    expect((await hooks.dispatch("tool_before", bash("bbb"))).blockedBy?.reason).toBe("[guard] other");
  });

  it("a file added or removed while hooks are loaded is picked up or dropped at the next dispatch", async () => {
    const { root, hooks } = await rulesWorkspace({
      ".hookyard/rules/a.md": ruleFile("event: bash\npattern: x", "a"),
    });
    await writeFile(join(root, ".hookyard/rules/b.md"), ruleFile("event: bash\npattern: x", "b"));
    expect(texts(await hooks.dispatch("tool_before", bash("x")))).toEqual(["[a] a\n\n[b] b"]);
    await rm(join(root, ".hookyard/rules/a.md"));
    expect(texts(await hooks.dispatch("tool_before", bash("x")))).toEqual(["[b] b"]);
  });
});

describe("rules: a broken file is a problem, the other rules still work", () => {
  it("at load: the problem names the file and the field", async () => {
    const { root, hooks, logger } = await rulesWorkspace({
      ".hookyard/rules/bad-operator.md": ruleFile(
        "event: bash\nconditions:\n  - field: command\n    operator: matches\n    pattern: x",
      ),
      ".hookyard/rules/bad-yaml.md": '---\nevent: bash\npattern: "rm\\s"\n---\nmsg\n',
      ".hookyard/rules/no-front-matter.md": "Just a note.\n",
      ".hookyard/rules/typo.md": ruleFile("event: bash\ncondition: x"),
      ".hookyard/rules/unknown-field.md": ruleFile(
        "event: bash\nconditions:\n  - field: comand\n    pattern: x",
      ),
      ".hookyard/rules/good.md": ruleFile("event: bash\npattern: x", "still here"),
    });
    const dir = join(root, ".hookyard/rules");
    expect(hooks.problems).toMatchObject([
      {
        name: "bad-operator",
        code: "RUN_ERR_HOOK_INVALID",
        file: join(dir, "bad-operator.md"),
        message: expect.stringMatching(/^conditions\[0\]\.operator: .*regex_match/),
      },
      {
        name: "bad-yaml",
        code: "RUN_ERR_HOOK_INVALID",
        file: join(dir, "bad-yaml.md"),
        message: expect.stringMatching(
          /^front matter: is not valid YAML \(line 3\): .*backslash must be doubled/,
        ),
      },
      expect.objectContaining({ name: "no-front-matter", message: expect.stringMatching(/^front matter: /) }),
      expect.objectContaining({
        name: "typo",
        message: expect.stringMatching(/^condition: is not a rule field/),
      }),
      expect.objectContaining({
        name: "unknown-field",
        message: expect.stringMatching(
          /^conditions\[0\]\.field: "comand" is not a field of event "bash"; fields there: .*command/,
        ),
      }),
    ]);
    expect(
      logger.errors.some(
        (line) => line.includes("bad-operator.md") && line.includes("conditions[0].operator"),
      ),
    ).toBe(true);
    // Warn rules (the default action) never blocked anything: only a file whose front matter cannot
    // be read, so that it may have been a block rule, fails closed until fixed.
    const chain = hooks.list().find((c) => c.point === "tool_before")?.hooks ?? [];
    expect(chain.filter((h) => h.engine === "broken").map((h) => h.name)).toEqual([
      "bad-yaml",
      "no-front-matter",
    ]);
    const outcome = await hooks.dispatch("tool_before", bash("x"));
    expect(outcome.blockedBy).toMatchObject({
      hook: "bad-yaml",
      reason: expect.stringContaining(`fix ${dir}/bad-yaml.md`),
    });
  });

  it("a block rule that does not compile fails closed; a warn rule that does not compile is left out", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/guard.md": ruleFile(
        "event: bash\naction: block\nconditions:\n  - field: comand\n    pattern: rm",
      ),
      ".hookyard/rules/good.md": ruleFile("event: bash\npattern: x", "still here"),
    });
    expect((await hooks.dispatch("tool_before", bash("x"))).blockedBy?.hook).toBe("guard");
    const { hooks: warnOnly } = await rulesWorkspace({
      ".hookyard/rules/note.md": ruleFile("event: bash\nconditions:\n  - field: comand\n    pattern: rm"),
      ".hookyard/rules/good.md": ruleFile("event: bash\npattern: x", "still here"),
    });
    expect(texts(await warnOnly.dispatch("tool_before", bash("x")))).toEqual(["[good] still here"]);
  });

  it("after a change: the broken version is reported once and left out; fixed, it applies again", async () => {
    const { root, hooks, logger } = await rulesWorkspace({
      ".hookyard/rules/edit.md": ruleFile("event: bash\npattern: x", "edit"),
      ".hookyard/rules/other.md": ruleFile("event: bash\npattern: x", "other"),
    });
    const file = join(root, ".hookyard/rules/edit.md");
    await writeFile(file, ruleFile("event: bash\naction: stop\npattern: x"));
    expect(texts(await hooks.dispatch("tool_before", bash("x")))).toEqual(["[other] other"]);
    expect(texts(await hooks.dispatch("tool_before", bash("x")))).toEqual(["[other] other"]);
    const reports = logger.infos.filter((line) => line.includes("edit.md"));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(
      /^\[rules\] RUN_ERR_HOOK_INVALID: .*edit\.md: action: .*the other rules still apply$/,
    );

    await writeFile(file, ruleFile("event: bash\naction: block\npattern: x", "edit"));
    expect((await hooks.dispatch("tool_before", bash("x"))).blockedBy?.reason).toBe("[edit] edit");
  });

  it("an oversized or non-UTF-8 file is refused by name without being used", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/huge.md": ruleFile("event: bash\npattern: x", "y".repeat(70 * 1024)),
      ".hookyard/rules/binary.md": Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]),
    });
    expect(hooks.problems.map((p) => [p.name, p.message])).toEqual([
      ["binary", "file: is not UTF-8 text"],
      ["huge", "file: is larger than 64 KiB"],
    ]);
  });

  it("a FIFO, a device or a folder named like a rule file is skipped unread, and a YAML alias bomb is refused", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]"];
    for (const name of "cdefghijklmn") bomb.push(`${name}: [*b, *b, *b, *b, *b, *b, *b, *b, *b]`);
    const { root, hooks } = await rulesWorkspace({
      ".hookyard/rules/bomb.md": `---\nevent: bash\n${bomb.join("\n")}\n---\nx\n`,
      ".hookyard/rules/good.md": ruleFile("event: bash\npattern: x", "good"),
    });
    const dir = join(root, ".hookyard/rules");
    execFileSync("mkfifo", [join(dir, "fifo.md")]);
    await symlink("/dev/zero", join(dir, "zero.md"));
    await mkdir(join(dir, "folder.md"));
    expect(hooks.problems.map((p) => [p.name, p.message])).toEqual([
      ["bomb", "front matter: Excessive alias count indicates a resource exhaustion attack"],
    ]);
    // The bomb's front matter cannot be read, so whether it was a block rule is unknown: closed.
    const outcome = await hooks.dispatch("tool_before", bash("x"));
    expect(outcome.blockedBy?.hook).toBe("bomb");
  });

  it("past the file cap, the first files by name apply and the rest are reported once", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= maxRuleFiles; i++) {
      files[`.hookyard/rules/r${String(i).padStart(3, "0")}.md`] = ruleFile(
        "event: bash\npattern: x",
        `${i}`,
      );
    }
    const { hooks } = await rulesWorkspace(files);
    expect(hooks.problems.map((p) => [p.name, p.message])).toEqual([
      ["rules", `only the first ${maxRuleFiles} rule files (by name) are read; the other 1 are ignored`],
    ]);
    const outcome = await hooks.dispatch("tool_before", bash("x"));
    const text = outcome.notices[0]?.text ?? "";
    expect(text).toContain(`[r${String(maxRuleFiles - 1).padStart(3, "0")}]`);
    expect(text).not.toContain(`[r${maxRuleFiles}]`);
  });
});
