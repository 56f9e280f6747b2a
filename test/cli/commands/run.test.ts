import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard } from "../../helpers/cli.js";
import { workspace } from "../../helpers/temp.js";

const script = (responses: unknown[]) => JSON.stringify({ responses });

describe("hookyard run", () => {
  it("with no arguments runs the bundled example and removes its temp workspace", async () => {
    const dir = await workspace();
    const result = await hookyard(["run"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Blocked by hook "no-rm-rf"');
    expect(result.stdout).toContain("[redacted:aws-key]");
    expect(result.stdout).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(result.stdout).toMatch(/inject at agent_before by house-style \(workspace, trusted\)/);
    const temp = /temporary workspace \((.+?)\)/.exec(result.stdout)?.[1];
    expect(temp).toBeTruthy();
    expect(existsSync(temp as string)).toBe(false);
  });

  it("a hook that throws is reported on stderr with its name and point, and the run goes on", async () => {
    const dir = await workspace({
      "script.json": script([
        { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A" } }] },
        { content: "wrote it" },
      ]),
      ".hookyard/hooks/flaky.ts": `import { defineHook } from "hookyard";
export default defineHook({
  name: "flaky",
  on: {
    tool_before(ctx) {
      ctx.args.path = "elsewhere.txt";
      throw new Error("database unreachable");
    },
  },
});
`,
    });
    const result = await hookyard(["run", "write it", "--model", "scripted:script.json"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('hook "flaky" (workspace) at tool_before failed: database unreachable');
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("A");
    expect(existsSync(join(dir, "elsewhere.txt"))).toBe(false);
    expect(result.stdout).toContain("answer wrote it");
    // The transcript says why, not only stderr.
    expect(result.stdout).toMatch(
      /⚑ error at tool_before by flaky \(workspace, trusted\): RUN_ERR_HOOK_THREW: database unreachable/,
    );
  });

  it("--json has a reason for a failed hook and an event for a hook that ran and did nothing", async () => {
    const dir = await workspace({
      "script.json": script([
        { toolCalls: [{ name: "list_dir", args: { path: "." } }] },
        { content: "done" },
      ]),
      ".hookyard/hooks/flaky.ts": `export default { name: "flaky", on: { tool_before() { throw new Error("database unreachable"); } } };\n`,
      ".hookyard/hooks/quiet.ts": `export default { name: "quiet", on: { tool_before() { return undefined; } } };\n`,
    });
    const result = await hookyard(["run", "look", "--model", "scripted:script.json", "--json"], { cwd: dir });
    expect(result.code).toBe(0);
    const hookEvents = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === "hook" && event.point === "tool_before");
    expect(hookEvents).toContainEqual(
      expect.objectContaining({
        hook: "flaky",
        effect: "error",
        text: "RUN_ERR_HOOK_THREW: database unreachable",
      }),
    );
    expect(hookEvents).toContainEqual(expect.objectContaining({ hook: "quiet", effect: "none" }));
  });

  it('onError "block" makes a failing guard block the tool call', async () => {
    const dir = await workspace({
      "script.json": script([
        { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A" } }] },
        { content: "ok" },
      ]),
      ".hookyard/hooks/strict.ts": `import { defineHook } from "hookyard";
export default defineHook({
  name: "strict",
  onError: "block",
  on: { tool_before() { throw new Error("policy server down"); } },
});
`,
    });
    const result = await hookyard(["run", "write it", "--model", "scripted:script.json"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(result.stdout).toContain('Blocked by hook "strict"');
  });

  it("--json prints one JSON event per line", async () => {
    const dir = await workspace({ "script.json": script([{ content: "hello" }]) });
    const result = await hookyard(["run", "hi", "--model", "scripted:script.json", "--json"], { cwd: dir });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(events[0]?.type).toBe("session");
    expect(events.at(-1)).toMatchObject({ type: "end", reason: "completed" });
  });

  it("the audit log holds every tool call, blocked ones included", async () => {
    const dir = await workspace({
      "script.json": script([
        { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A" } }] },
        { toolCalls: [{ name: "bash", args: { command: "rm -rf /" } }] },
        { content: "ok" },
      ]),
      ".hookyard/hooks/guard.mjs":
        'export default { name: "guard", matcher: { tool: "^bash$" }, on: { tool_before: () => ({ block: "no" }) } };',
    });
    const result = await hookyard(["run", "go", "--model", "scripted:script.json"], { cwd: dir });
    expect(result.code).toBe(0);
    const lines = (await readFile(join(dir, ".hookyard/logs/audit.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.point, l.tool, l.verdict ?? null])).toEqual([
      ["tool_before", "write_file", "allow"],
      ["tool_after", "write_file", null],
      ["tool_before", "bash", "block"],
    ]);
    expect(lines[2]).toMatchObject({ decidedBy: "guard", args: { command: "rm -rf /" } });
  });

  it("--ask prompt with no more input answers no: the tool does not run and the run ends normally", async () => {
    const dir = await workspace({
      "script.json": script([
        { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A" } }] },
        { content: "ok" },
      ]),
      ".hookyard/hooks/careful.mjs":
        'export default { name: "careful", on: { tool_before: () => ({ ask: "writes a file" }) } };',
    });
    const result = await hookyard(["run", "go", "--model", "scripted:script.json", "--ask", "prompt"], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "a.txt"))).toBe(false);
    expect(result.stdout).toContain("confirmation was required");
    expect(result.stdout).toContain("end: completed");
  });

  it("a model endpoint that fails is reported with its code and remedy, exit 1", async () => {
    const dir = await workspace();
    const server = createServer((_req, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end('{"error":"model is loading"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await hookyard(
        ["run", "hi", "--model", "openai:tiny", "--base-url", `http://127.0.0.1:${port}/v1`],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/error\s+.*answered 503: \{"error":"model is loading"\}/);
      expect(result.stderr).toMatch(/^hookyard: RUN_ERR_MODEL_FAILED: .*503.*\(check --base-url/m);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a hook that rejects a promise nobody awaits is reported, and the run goes on", async () => {
    const dir = await workspace({
      "script.json": script([
        { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "A" } }] },
        { content: "wrote it" },
      ]),
      ".hookyard/hooks/forgetful.mjs": `export default {
  name: "forgetful",
  on: { tool_before() { Promise.reject(new Error("sync server down")); } },
};`,
    });
    const result = await hookyard(["run", "write it", "--model", "scripted:script.json"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("hookyard: error: a promise nobody awaited was rejected");
    expect(result.stderr).toContain("sync server down");
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("A");
    expect(result.stdout).toContain("answer wrote it");
  });

  it("a model server sending tool-call arguments nested 5000 deep is a model failure, not a crash", async () => {
    const dir = await workspace();
    const args = `${'{"d":'.repeat(5_000)}{}${"}".repeat(5_000)}`;
    const answer = {
      choices: [
        {
          message: { content: null, tool_calls: [{ id: "c1", function: { name: "bash", arguments: args } }] },
        },
      ],
    };
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await hookyard(
        ["run", "hi", "--json", "--model", "openai:tiny", "--base-url", `http://127.0.0.1:${port}/v1`],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^hookyard: RUN_ERR_MODEL_FAILED: .*nested deeper than 64 levels/m);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(
        result.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).type),
      ).toContain("end");
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
