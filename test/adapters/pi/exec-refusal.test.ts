import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hookyard } from "../../helpers/cli.js";
import { workspace } from "../../helpers/temp.js";

/** What hookyard's Pi extension reads when hookyard cannot check an event (build first: dist/). */
const runtime = await mkdtemp(join(tmpdir(), "hookyard-pi-exec-"));
afterAll(() => rm(runtime, { recursive: true, force: true }));
const env = { XDG_RUNTIME_DIR: runtime, HOOKYARD_EXEC_ROUTE: "inprocess" };

describe("hookyard exec --profile pi, on input it cannot check", () => {
  it("a tool_call that is not JSON is blocked (exit 2), the reason saying why; a prompt (input) is handled, so no model call", async () => {
    const root = await workspace({ "hookyard.json": {} });
    const tool = await hookyard(["exec", "--profile", "pi", "tool_call"], {
      cwd: root,
      env,
      input: "not json",
    });
    expect(tool.code, tool.stderr).toBe(2);
    const blocked = JSON.parse(tool.stdout);
    expect(blocked.block).toBe(true);
    expect(blocked.reason).toMatch(
      /^hookyard could not check this tool call, so it is refused: .*not valid JSON/,
    );
    const prompt = await hookyard(["exec", "--profile", "pi", "input"], {
      cwd: root,
      env,
      input: JSON.stringify({ text: "hi" }),
    });
    expect(prompt.code, prompt.stderr).toBe(2);
    expect(JSON.parse(prompt.stdout)).toMatchObject({ action: "handled" });
    expect(JSON.parse(prompt.stdout).reason).toContain("session_id");
  });

  it("an event hookyard does not map passes through with an empty answer; a mapped one with no hook says nothing", async () => {
    const root = await workspace({ "hookyard.json": {} });
    const other = await hookyard(["exec", "--profile", "pi", "context"], { cwd: root, env, input: "{}" });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toBe("");
    const call = JSON.stringify({
      session_id: "s1",
      toolName: "bash",
      toolCallId: "t1",
      input: { command: "ls" },
    });
    const allowed = await hookyard(["exec", "--profile", "pi", "tool_call"], { cwd: root, env, input: call });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toBe("");
  });
});
