import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SandboxedHook, sandboxedHook } from "hookyard/testing";
import { afterAll, describe, expect, it } from "vitest";

// Runs as users run it: bundled as `hookyard pack` bundles it, in the real sandbox, with no grants.
const source = fileURLToPath(new URL("../src/hook.ts", import.meta.url));
const roots: string[] = [];
const hooks: SandboxedHook[] = [];

afterAll(async () => {
  await Promise.all(hooks.map((hook) => hook.close()));
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

async function workspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "todo-state-test-"));
  roots.push(root);
  return root;
}

/** A new sandboxedHook is a new sandbox process, as a new hookyard run is. */
async function session(root: string, config?: Record<string, unknown>): Promise<SandboxedHook> {
  const hook = await sandboxedHook(source, { root, ...(config ? { config } : {}) });
  hooks.push(hook);
  return hook;
}

const stateFile = (root: string) => join(root, ".hookyard", "state", "todo-state.json");

async function storedTexts(root: string): Promise<string[]> {
  const state = JSON.parse(await readFile(stateFile(root), "utf8")) as { todos: Array<{ text: string }> };
  return state.todos.map((todo) => todo.text);
}

const answer = (sessionId: string, text: string) => ({
  sessionId,
  answer: text,
  messages: [{ role: "assistant" as const, content: text }],
});

const firstTurn = (sessionId: string) => ({ sessionId, prompt: "Where were we?", history: [] });

describe("todo-state", () => {
  it("an answer with three TODO lines persists three items; TODOs in code and in prose are left alone", async () => {
    const root = await workspace();
    const hook = await session(root);
    const outcome = await hook.run(
      "turn_after",
      answer(
        "s1",
        [
          "I fixed the parser. Left for later:",
          "TODO: add a table-driven test for src/parser.js",
          "- TODO: rotate the AWS key in notes/deploy.txt",
          "  * todo: update the changelog",
          "The code still has a marker, see below. I wrote TODO: in the commit message too.",
          "```js",
          "// TODO: handle quoted commas",
          "TODO: this line is code, not a note",
          "```",
          "TODO:",
        ].join("\n"),
      ),
    );
    expect(outcome.runs[0]?.status).toBe("ok");
    expect(hook.errors).toEqual([]);
    expect(await storedTexts(root)).toEqual([
      "add a table-driven test for src/parser.js",
      "rotate the AWS key in notes/deploy.txt",
      "update the changelog",
    ]);

    // DONE removes the item named, whatever its case or full stop; an unknown DONE and a repeat change nothing.
    await hook.run(
      "turn_after",
      answer(
        "s1",
        "DONE: Rotate the AWS key in notes/deploy.txt.\nDONE: something never listed\nTODO: update the changelog",
      ),
    );
    expect(await storedTexts(root)).toEqual([
      "add a table-driven test for src/parser.js",
      "update the changelog",
    ]);

    // A new session (a new process) starts with the open list injected, once: not on later turns.
    const next = await session(root);
    const start = await next.run("turn_before", firstTurn("s2"));
    expect(start.injects).toHaveLength(1);
    expect(start.injects[0]?.hook).toBe("todo-state");
    expect(start.injects[0]?.text).toBe(
      'Open todos from earlier sessions: 1. add a table-driven test for src/parser.js; 2. update the changelog. When you finish one, write a line "DONE: <its text>".',
    );
    const later = await next.run("turn_before", {
      sessionId: "s2",
      prompt: "and then?",
      history: [
        { role: "user", content: "Where were we?" },
        { role: "assistant", content: "Two things are open." },
      ],
    });
    expect(later.injects).toEqual([]);
  });

  it("three turn_after calls dispatched back to back without awaiting are all kept", async () => {
    const root = await workspace();
    const hook = await session(root);
    const outcomes = await Promise.all([
      hook.run("turn_after", answer("s1", "TODO: first")),
      hook.run("turn_after", answer("s1", "TODO: second")),
      hook.run("turn_after", answer("s1", "TODO: third")),
    ]);
    expect(outcomes.map((o) => o.runs[0]?.status)).toEqual(["ok", "ok", "ok"]);
    expect((await storedTexts(root)).sort()).toEqual(["first", "second", "third"]);
  });

  it("items added in this session are not injected as earlier ones; an empty list injects nothing", async () => {
    const root = await workspace();
    const hook = await session(root);
    expect((await hook.run("turn_before", firstTurn("s1"))).injects).toEqual([]);
    await hook.run("turn_after", answer("s1", "TODO: mine"));
    expect((await hook.run("turn_before", firstTurn("s1"))).injects).toEqual([]);
    expect((await hook.run("turn_before", firstTurn("s2"))).injects[0]?.text).toContain("1. mine.");
  });

  it("an answer with no TODO or DONE line does not touch the state file", async () => {
    const root = await workspace();
    const hook = await session(root);
    const outcome = await hook.run(
      "turn_after",
      answer("s1", "All done, nothing is left. (I checked the TODO list: it is empty.)"),
    );
    expect(outcome.runs[0]?.status).toBe("ok");
    await expect(readFile(stateFile(root), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a hand-edited, broken state file is read as an empty list, and replaced on the next update", async () => {
    const root = await workspace();
    await mkdir(join(root, ".hookyard", "state"), { recursive: true });
    await writeFile(
      stateFile(root),
      JSON.stringify({
        todos: [{ text: 42 }, "loose string", { text: "kept", sessionId: "s0", added: "x" }],
      }),
    );
    const hook = await session(root);
    const start = await hook.run("turn_before", firstTurn("s1"));
    expect(start.injects[0]?.text).toContain("1. kept.");
    await hook.run("turn_after", answer("s1", "TODO: new"));
    expect(await storedTexts(root)).toEqual(["kept", "new"]);

    await writeFile(stateFile(root), JSON.stringify({ todos: "not a list" }));
    const fresh = await session(root);
    expect((await fresh.run("turn_before", firstTurn("s2"))).injects).toEqual([]);
    expect(fresh.errors).toEqual([]);
  });

  it("a flood of TODO lines is handled within the sandbox's CPU limit: the newest maxItems are kept, each cut short", async () => {
    const root = await workspace();
    const hook = await session(root, { maxItems: 5 });
    const count = 20_000;
    const lines = Array.from(
      { length: count },
      (_, i) => `TODO: item ${i}${i === count - 1 ? " x".repeat(400) : ""}`,
    );
    const outcome = await hook.run("turn_after", answer("s1", lines.join("\n")));
    expect(outcome.runs[0]?.status).toBe("ok");
    const texts = await storedTexts(root);
    expect(texts.map((t) => t.split(" ").slice(0, 2).join(" "))).toEqual([
      "item 19995",
      "item 19996",
      "item 19997",
      "item 19998",
      "item 19999",
    ]);
    expect(texts[4]?.length).toBe(300);
    expect(hook.logs.join("\n")).toContain("kept the newest 5 todos, dropped 19995");
  });
});
