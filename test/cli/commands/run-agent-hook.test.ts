import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard } from "../../helpers/cli.js";
import { workspace } from "../../helpers/temp.js";

const bash = (command: string) => ({ toolCalls: [{ name: "bash", args: { command } }] });

describe("hookyard run with an agent hook", () => {
  it("the reviewer's verdicts apply, and its own calls show in the transcript, marked and nested", async () => {
    const dir = await workspace({
      "hookyard.json": {
        rules: [
          {
            name: "reviewer",
            engine: "agent",
            events: ["tool_before"],
            matcher: { tool: "^bash$" },
            model: "scripted:reviewer.json",
            instructions: "Block commands that delete files.",
            onError: "block",
          },
        ],
      },
      "script.json": { responses: [bash("rm -rf keep"), bash("ls"), { content: "tidied" }] },
      "reviewer.json": {
        responses: [
          { toolCalls: [{ name: "list_dir", args: { path: "." } }] },
          { content: '{"verdict":"block","reason":"rm -rf would delete keep/"}' },
          { content: '{"verdict":"allow"}' },
        ],
      },
      "keep/file.txt": "precious",
    });
    const result = await hookyard(["run", "tidy up", "--model", "scripted:script.json"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(existsSync(join(dir, "keep", "file.txt"))).toBe(true);
    const lines = result.stdout.split("\n");
    expect(lines).toContain(
      "  ⚑ block at tool_before by reviewer (workspace, trusted): rm -rf would delete keep/",
    );
    expect(lines).toContain('  ← Blocked by hook "reviewer": rm -rf would delete keep/');
    // The reviewer's list_dir and its result, each line marked as the reviewer's, one level deep.
    expect(lines).toContain('  ┊ reviewer[1]   → list_dir {"path":"."}');
    expect(lines.filter((l) => l.startsWith("  ┊ reviewer[1] "))).toContainEqual(
      expect.stringContaining('model  {"verdict":"block","reason":"rm -rf would delete keep/"}'),
    );
    // ls was allowed and ran: its output is the outer tool result, not marked.
    expect(lines).toContain("  ← hookyard.json");
    expect(result.stdout).toContain("answer tidied");

    const json = await hookyard(["run", "tidy up", "--model", "scripted:script.json", "--json"], {
      cwd: dir,
    });
    const events = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const nested = events.filter((e) => e.type === "nested");
    expect(nested.length).toBeGreaterThan(0);
    expect(nested.every((e) => e.hook === "reviewer" && e.depth === 1)).toBe(true);
    expect(nested.map((e) => e.event.type)).toContain("tool_call");
  });
});
