import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard, repoRoot } from "../../../helpers/cli.js";
import { installFixture } from "../../../helpers/lock-fixture.js";
import { workspace } from "../../../helpers/temp.js";
import { processWaitMs } from "../../../helpers/timeouts.js";

const script = (responses: unknown[]) => JSON.stringify({ responses });
const points = [
  "agent_before",
  "agent_after",
  "turn_before",
  "turn_after",
  "llm_before",
  "llm_after",
  "tool_before",
  "tool_after",
  "tool_error",
  "compact_before",
  "notify",
];

/** A workspace hook that appends the point to calls.txt each time it runs anywhere. */
const counterHook = `import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { defineHook } from "hookyard";
const count = (point) => () => { appendFileSync(join(process.cwd(), "calls.txt"), point + "\\n"); };
export default defineHook({
  name: "call-counter",
  on: { ${points.map((p) => `${p}: count(${JSON.stringify(p)})`).join(", ")} },
});
`;

async function sample(name: string, grants: string[] = []) {
  const dir = join(repoRoot, "sample-hooks", name);
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
    hookyard: Record<string, unknown> & { events: string[] };
  };
  const { main: _main, ...hookyard } = manifest.hookyard;
  return { name, source: await readFile(join(dir, "src", "hook.ts"), "utf8"), hookyard, grants };
}

async function runIds(dir: string): Promise<string[]> {
  const result = await hookyard(["runs", "list", "--json"], { cwd: dir });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { runs: Array<{ id: string }> }).runs.map((run) => run.id);
}

/** Every file under `dir`, by relative path, as bytes: what a replay must leave exactly as it was. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (sub: string) => {
    for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
      const path = join(sub, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.set(path, (await readFile(join(dir, path))).toString("base64"));
    }
  };
  await walk("");
  return files;
}

const records = async (dir: string, id: string) =>
  (await readFile(join(dir, ".hookyard", "runs", id, "record.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("hookyard run --replay", () => {
  it("prints a run with todo-state and steering-injector byte for byte, and runs no hook, model or tool", async () => {
    const dir = await workspace({
      "docs/conventions.md":
        "# Conventions\n\n## Testing\n\nEvery parser change comes with a table-driven test.\n",
      "first.json": script([
        { content: "Looking.", toolCalls: [{ name: "list_dir", args: { path: "docs" } }] },
        { content: "Read them.\nTODO: add a table-driven test for the parser" },
      ]),
      "second.json": script([{ content: "One thing is open: the parser test." }]),
      ".hookyard/hooks/call-counter.ts": counterHook,
    });
    await installFixture(dir, [
      await sample("todo-state"),
      await sample("steering-injector", ["fs.read:docs/conventions.md"]),
    ]);
    const first = await hookyard(["run", "We are testing the parser", "--model", "scripted:first.json"], {
      cwd: dir,
    });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /inject at llm_before by steering-injector \(community, sandboxed\): Project conventions/,
    );
    const second = await hookyard(["run", "What is left?", "--model", "scripted:second.json", "--json"], {
      cwd: dir,
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      '"effect":"inject","text":"Open todos from earlier sessions: 1. add a table-driven test',
    );
    const [secondId, firstId] = await runIds(dir);

    const calls = await readFile(join(dir, "calls.txt"), "utf8");
    expect(calls.split("\n").filter((l) => l === "agent_before")).toHaveLength(2);
    expect(existsSync(join(dir, ".hookyard", "state", "todo-state.json"))).toBe(true);
    expect(existsSync(join(dir, ".hookyard", "logs", "audit.jsonl"))).toBe(true);
    const receipts = (await records(dir, firstId as string)).filter((l) => l.kind === "state_write");
    expect(receipts.map((r) => `${r.hook}:${r.key}`)).toEqual([
      "steering-injector:injected",
      "todo-state:todos",
    ]);
    const before = await snapshot(dir);

    const replayFirst = await hookyard(["run", "--replay", firstId as string], { cwd: dir });
    const replaySecond = await hookyard(["run", "--replay", secondId as string, "--json"], { cwd: dir });
    expect(replayFirst.code).toBe(0);
    expect(replaySecond.code).toBe(0);
    expect(Buffer.from(replayFirst.stdout).equals(Buffer.from(first.stdout))).toBe(true);
    expect(Buffer.from(replaySecond.stdout).equals(Buffer.from(second.stdout))).toBe(true);
    expect(replayFirst.stderr + replaySecond.stderr).toBe("");
    // The state files, the audit log, the counter and the records themselves: not one byte changed.
    expect(await snapshot(dir)).toEqual(before);
  });

  it("a run killed with -9 is readable up to its last step, says where it stopped, and resumes as a new run", async () => {
    const dir = await workspace({
      "s.json": script([
        { content: "Looking.", toolCalls: [{ name: "list_dir", args: { path: "." } }] },
        { content: "too late", delayMs: 600_000 },
      ]),
      ".hookyard/hooks/call-counter.ts": counterHook,
    });
    const child = spawn(join(repoRoot, "bin", "hookyard.js"), ["run", "go", "--model", "scripted:s.json"], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    const runs = join(dir, ".hookyard", "runs");
    const deadline = Date.now() + processWaitMs;
    let id: string | undefined;
    for (;;) {
      if (Date.now() > deadline) throw new Error("the run never reached its second model call");
      const [found] = existsSync(runs) ? await readdir(runs) : [];
      if (
        found &&
        (await readFile(join(runs, found, "record.jsonl"), "utf8")).includes(
          '"kind":"model_request","call":2',
        )
      ) {
        id = found;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const shown = await hookyard(["runs", "show", id], { cwd: dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /status {3}unfinished: it stopped after step \d+ \(model call 2 sent\), while waiting for the answer to model call 2/,
    );
    const replay = await hookyard(["run", "--replay", id], { cwd: dir });
    expect(replay.code).toBe(1);
    // Everything the run showed before the kill, and nothing it did not.
    expect(replay.stdout).toBe(stdout);
    expect(replay.stdout).toContain("  → list_dir");
    expect(replay.stdout).not.toContain("too late");
    expect(replay.stderr).toContain(`hookyard: RUN_ERR_RUN_UNFINISHED: run ${id} did not finish`);
    expect(replay.stderr).toContain(`hookyard run --resume ${id}`);

    // A crash in the middle of a line: that half line is left out, the rest still reads.
    await appendFile(join(runs, id, "record.jsonl"), '{"seq":999,"at":"2026-');
    const torn = await hookyard(["run", "--replay", id], { cwd: dir });
    expect(torn.stdout).toBe(stdout);
    expect(torn.stderr).toContain("its last line was cut off by the crash and is left out");

    const callsBefore = await readFile(join(dir, "calls.txt"), "utf8");
    expect(callsBefore.split("\n").filter((l) => l === "agent_before")).toHaveLength(1);
    await writeFile(join(dir, "s.json"), script([{ content: "done this time" }]));
    const resumed = await hookyard(["run", "--resume", id], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`Starting run ${id} again as a new run.`);
    expect(resumed.stdout).toContain("answer done this time");
    const calls = await readFile(join(dir, "calls.txt"), "utf8");
    expect(calls.split("\n").filter((l) => l === "agent_before")).toHaveLength(2);
    const ids = await runIds(dir);
    expect(ids).toHaveLength(2);
    const newId = ids.find((other) => other !== id) as string;
    const [header] = await records(dir, newId);
    expect(header).toMatchObject({
      kind: "run",
      prompt: "go",
      meta: { resumedFrom: id, modelSpec: "scripted:s.json" },
    });

    const again = await hookyard(["run", "--resume", newId], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`hookyard run --replay ${newId}`);
  });

  it("three state writes from three concurrent callbacks are three receipts, in write order, and replay adds none", async () => {
    const dir = await workspace({
      "s.json": script([{ content: "ok" }]),
      ".hookyard/hooks/three-writes.ts": `import { defineHook } from "hookyard";
export default defineHook({
  name: "three-writes",
  on: {
    async agent_before(ctx, api) {
      const later = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await Promise.all([60, 30, 0].map(async (ms, i) => { await later(ms); await api.state.set("write" + (i + 1), i + 1); }));
    },
  },
});
`,
    });
    const run = await hookyard(["run", "go", "--model", "scripted:s.json"], { cwd: dir });
    expect(run.code).toBe(0);
    const [id] = await runIds(dir);
    const lines = await records(dir, id as string);
    const receipts = lines.filter((line) => line.kind === "state_write");
    expect(receipts.map((r) => [r.hook, r.key, r.revision])).toEqual([
      ["three-writes", "write3", 1],
      ["three-writes", "write2", 2],
      ["three-writes", "write1", 3],
    ]);
    const stateFile = join(dir, ".hookyard", "state", "three-writes.json");
    const state = await readFile(stateFile);
    expect(createHash("sha256").update(state).digest("hex")).toBe(receipts[2]?.sha256);
    // Each receipt comes before the agent_before chain that made it is closed.
    const chain = lines.findIndex((line) => line.kind === "chain" && line.point === "agent_before");
    expect(lines.indexOf(receipts[2] as Record<string, unknown>)).toBeLessThan(chain);

    const record = await readFile(join(dir, ".hookyard", "runs", id as string, "record.jsonl"));
    const replay = await hookyard(["run", "--replay", id as string], { cwd: dir });
    expect(replay.code).toBe(0);
    expect(replay.stdout).toBe(run.stdout);
    expect(await readFile(join(dir, ".hookyard", "runs", id as string, "record.jsonl"))).toEqual(record);
    expect(await readFile(stateFile)).toEqual(state);
  });
});

describe("hookyard runs", () => {
  it("an unknown id, an id that is a path, and a damaged record are clear errors with codes", async () => {
    const dir = await workspace({ "s.json": script([{ content: "ok" }]) });
    expect((await hookyard(["run", "hi", "--model", "scripted:s.json"], { cwd: dir })).code).toBe(0);
    const [id] = await runIds(dir);

    for (const args of [
      ["run", "--replay", "nope"],
      ["runs", "show", "../../etc"],
    ]) {
      const missing = await hookyard(args, { cwd: dir });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(
        /hookyard: RUN_ERR_RUN_NOT_FOUND: no run ".*" in .*; `hookyard runs list` shows/,
      );
    }

    const file = join(dir, ".hookyard", "runs", id as string, "record.jsonl");
    const lines = (await readFile(file, "utf8")).split("\n");
    lines[2] = "this is not a step";
    await writeFile(file, lines.join("\n"));
    for (const args of [
      ["run", "--replay", id as string],
      ["runs", "show", id as string],
    ]) {
      const damaged = await hookyard(args, { cwd: dir });
      expect(damaged.code).toBe(1);
      expect(damaged.stderr).toContain(`hookyard: RUN_ERR_RUN_CORRUPT: ${file}, line 3: not JSON`);
      expect(damaged.stdout).toBe("");
    }
    const list = await hookyard(["runs", "list"], { cwd: dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+damaged\\s+RUN_ERR_RUN_CORRUPT`));
  });

  it("--replay takes no prompt or model", async () => {
    const dir = await workspace();
    const result = await hookyard(["run", "hi", "--replay", "x"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--replay prints a recorded run; it takes no prompt, --model or --resume",
    );
  });
});
