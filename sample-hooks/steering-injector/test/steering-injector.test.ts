import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SandboxedHook, sandboxedHook } from "hookyard/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Runs as users run it: bundled as `hookyard pack` bundles it, in the real sandbox, with the one grant it asks for.
const source = fileURLToPath(new URL("../src/hook.ts", import.meta.url));
const grant = "fs.read:docs/conventions.md";

const conventions = [
  "# Conventions",
  "",
  "Intro text that belongs to no section.",
  "",
  "## Style",
  "",
  "Two-space indentation; no default exports.",
  "",
  "```md",
  "## Not a heading: inside a fence",
  "```",
  "",
  "## Testing",
  "",
  "Every parser change comes with a table-driven test in test/, run with `npm test`.",
  "Tests never touch the network.",
  "",
  "## Commit messages",
  "",
  "Imperative mood, at most 72 characters in the subject line.",
  "",
  "## Error handling",
  "",
  "Errors are classes with a stable code.",
  "",
].join("\n");

const testingInject = [
  'Project conventions (docs/conventions.md), section "Testing":',
  "Every parser change comes with a table-driven test in test/, run with `npm test`.",
  "Tests never touch the network.",
].join("\n");

const roots: string[] = [];
const opened: SandboxedHook[] = [];

afterAll(async () => {
  await Promise.all(opened.map((hook) => hook.close()));
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

async function workspace(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "steering-injector-test-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

async function open(root: string, config?: Record<string, unknown>): Promise<SandboxedHook> {
  const hook = await sandboxedHook(source, { root, grants: [grant], ...(config ? { config } : {}) });
  opened.push(hook);
  return hook;
}

/** The complete lines of the sandbox's capability audit log (a line being written is skipped). */
async function auditLines(root: string): Promise<unknown[]> {
  const text = await readFile(join(root, ".hookyard", "logs", "capabilities.jsonl"), "utf8").catch(() => "");
  return text
    .split("\n")
    .slice(0, -1)
    .map((line) => JSON.parse(line));
}

type Said = Array<{ role: "system" | "user" | "assistant" | "tool"; content: string }>;

/** The request an agent is about to send, after the conversation `said`. */
const request = (sessionId: string, said: Said) => ({
  sessionId,
  systemPrompt: "You are a coding agent.",
  messages: said,
  tools: [],
  model: "scripted",
});

const user = (content: string) => ({ role: "user" as const, content });
const assistant = (content: string) => ({ role: "assistant" as const, content });

describe("steering-injector", () => {
  let hook: SandboxedHook;
  beforeAll(async () => {
    hook = await open(await workspace({ "docs/conventions.md": conventions }));
  });

  it("injects the Testing section, tagged by its heading, when tests are discussed", async () => {
    const outcome = await hook.run(
      "llm_before",
      request("s-tests", [user("The parser splits on commas. Can you write tests for it?")]),
    );
    expect(outcome.runs[0]?.status).toBe("ok");
    expect(outcome.injects).toEqual([{ hook: "steering-injector", text: testingInject }]);
  });

  it.each([
    ["testing", "Let's do some testing of the parser", true],
    ["tested", "Is the parser tested anywhere?", true],
    ["Test", "Test it.", true],
    ["contest", "The contest results are in the README", false],
    ["latest", "Use the latest parser version", false],
    ["attestation", "Add an attestation to the release", false],
  ])("simple forms: %s → %s → Testing injected: %s", async (word, text, injected) => {
    const outcome = await hook.run("llm_before", request(`s-form-${word}`, [user(text)]));
    expect(outcome.runs[0]?.status).toBe("ok");
    expect(outcome.injects.map((i) => i.text)).toEqual(injected ? [testingInject] : []);
  });

  it("injects nothing when no section's topic comes up", async () => {
    const outcome = await hook.run(
      "llm_before",
      request("s-none", [user("Rename the variable x to lineCount in src/parser.js"), assistant("Done.")]),
    );
    expect(outcome.runs[0]?.status).toBe("ok");
    expect(outcome.injects).toEqual([]);
    expect(hook.errors).toEqual([]);
  });

  it("injects a section once per session; another section, or another session, still gets its own", async () => {
    const first = await hook.run("llm_before", request("s-once", [user("Write the tests")]));
    expect(first.injects.map((i) => i.text)).toEqual([testingInject]);

    const again = await hook.run(
      "llm_before",
      request("s-once", [user("Write the tests"), assistant("Testing now; the tests pass.")]),
    );
    expect(again.injects).toEqual([]);

    const errors = await hook.run(
      "llm_before",
      request("s-once", [assistant("Tests pass."), user("How should the parser handle errors?")]),
    );
    expect(errors.injects.map((i) => i.text)).toEqual([
      'Project conventions (docs/conventions.md), section "Error handling":\nErrors are classes with a stable code.',
    ]);

    const otherSession = await hook.run("llm_before", request("s-once-2", [user("Write the tests")]));
    expect(otherSession.injects.map((i) => i.text)).toEqual([testingInject]);
  });

  it("reads only the recent user and assistant messages: not tool output, not the system, not older turns", async () => {
    const outcome = await hook.run(
      "llm_before",
      request("s-recent", [
        user("Write tests for the parser"),
        assistant("Tests written."),
        { role: "system", content: "Testing mode is on." },
        user("Now rename x to lineCount"),
        { role: "tool", content: "ran 12 tests, all passed" },
        assistant("Renamed."),
      ]),
    );
    expect(outcome.runs[0]?.status).toBe("ok");
    expect(outcome.injects).toEqual([]);
  });

  it("a long message is read at its end, within the sandbox's CPU limit", async () => {
    const filler = "the quick brown fox jumps over the lazy dog while a build runs ".repeat(30_000);
    const ends = await hook.run("llm_before", request("s-long", [user(`${filler} Now write the tests.`)]));
    expect(ends.runs[0]?.status).toBe("ok");
    expect(ends.injects.map((i) => i.text)).toEqual([testingInject]);
    const starts = await hook.run("llm_before", request("s-long-2", [user(`Tests first. ${filler}`)]));
    expect(starts.runs[0]?.status).toBe("ok");
    expect(starts.injects).toEqual([]);
  });

  it("a `## ` line inside a code fence is part of its section, not a section of its own", async () => {
    const fenced = await hook.run(
      "llm_before",
      request("s-fence", [user("Is that heading inside a fence?")]),
    );
    expect(fenced.injects).toEqual([]);

    const style = await hook.run("llm_before", request("s-fence-2", [user("What style do we use?")]));
    expect(style.injects[0]?.text).toBe(
      [
        'Project conventions (docs/conventions.md), section "Style":',
        "Two-space indentation; no default exports.",
        "",
        "```md",
        "## Not a heading: inside a fence",
        "```",
      ].join("\n"),
    );
  });

  it("config topics map extra words to a heading, and maxChars cuts a long section", async () => {
    const configured = await open(await workspace({ "docs/conventions.md": conventions }), {
      topics: { vitest: "Testing", "pull request": "commit messages", ignored: 42 },
      maxChars: 20,
    });
    const vitest = await configured.run("llm_before", request("s-1", [user("vitest is flaky again")]));
    expect(vitest.injects.map((i) => i.text)).toEqual([
      'Project conventions (docs/conventions.md), section "Testing":\nEvery parser change … (cut; the rest is in docs/conventions.md)',
    ]);
    const pr = await configured.run("llm_before", request("s-2", [user("Open pull requests for it")]));
    expect(pr.injects[0]?.text).toContain('section "Commit messages"');
    const pull = await configured.run("llm_before", request("s-3", [user("Pull the request body apart")]));
    expect(pull.injects).toEqual([]);
  });

  it("a missing conventions file injects nothing and is said once", async () => {
    const missing = await open(await workspace({}));
    for (const session of ["s-1", "s-2"]) {
      const outcome = await missing.run("llm_before", request(session, [user("Write the tests")]));
      expect(outcome.runs[0]?.status).toBe("ok");
      expect(outcome.injects).toEqual([]);
    }
    expect(missing.logs).toEqual([
      "[steering-injector] docs/conventions.md does not exist: no conventions to inject",
    ]);
    expect(missing.errors).toEqual([]);
  });

  it.each([
    ["docs/other.md", "fs.read:docs/other.md"],
    ["docs/conventions.md/../secrets.md", "fs.read:docs/secrets.md"],
    ["/etc/hostname", "fs.read:/etc/hostname"],
  ])("config file %s is denied by the sandbox: the error names the grant %s", async (file, needs) => {
    const root = await workspace({
      "docs/conventions.md": conventions,
      "docs/other.md": "## Testing\nleaked\n",
      "docs/secrets.md": "## Testing\nleaked\n",
    });
    const elsewhere = await open(root, { file });
    const outcome = await elsewhere.run("llm_before", request("s-1", [user("Write the tests")]));
    expect(outcome.injects).toEqual([]);
    expect(outcome.runs[0]?.status).toBe("error");
    expect(outcome.warnings[0]?.message).toContain(`CapabilityDenied: needs ${needs}`);
    expect(elsewhere.errors.join("\n")).toContain(`needs ${needs}`);
    // The sandbox's audit log is written behind the call: wait, boundedly, for the denial's line.
    await expect
      .poll(() => auditLines(root), { timeout: 5_000 })
      .toContainEqual(expect.objectContaining({ hook: "steering-injector", allowed: false, needs }));
  });
});
