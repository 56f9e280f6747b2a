import { describe, expect, it } from "vitest";
import { toolAfter, toolBefore, turnBefore } from "../../../helpers/ctx.js";
import { claudeHook, workspaceWith } from "./command-profile-helpers.js";

/** A command that answers `json` on stdout (exit 0). */
const answer = (json: object) => `cat > /dev/null; printf '%s' '${JSON.stringify(json)}'`;
const exitTwo = "cat > /dev/null; echo matched >&2; exit 2";

describe("matchers in that agent's form", () => {
  const cases: Array<{ matcher: string | undefined; tool: string; agentTool?: string; runs: boolean }> = [
    { matcher: "Bash", tool: "bash", runs: true },
    { matcher: "Bash", tool: "read_file", runs: false },
    { matcher: "bash", tool: "bash", runs: false }, // case-sensitive, on that agent's name
    { matcher: "Bas", tool: "bash", runs: false }, // a plain name is exact, not a prefix
    { matcher: "Edit|Write", tool: "write_file", runs: true },
    { matcher: "Edit|Write", tool: "read_file", runs: false },
    { matcher: "Write", tool: "write_file", agentTool: "Edit", runs: false },
    { matcher: "Edit", tool: "write_file", agentTool: "Edit", runs: true },
    { matcher: "Notebook.*|Re.d", tool: "read_file", runs: true },
    { matcher: "mcp__.*__write", tool: "mcp__files__write", runs: true },
    { matcher: "mcp__.*__write", tool: "bash", runs: false },
    { matcher: "*", tool: "list_dir", runs: true },
    { matcher: "", tool: "list_dir", runs: true },
    { matcher: undefined, tool: "list_dir", runs: true },
  ];
  for (const { matcher, tool, agentTool, runs } of cases) {
    const name = agentTool ? `${tool} (originally ${agentTool})` : tool;
    it(`${JSON.stringify(matcher)} ${runs ? "matches" : "does not match"} ${name}`, async () => {
      const { hooks } = await workspaceWith([
        claudeHook("m", exitTwo, ["tool_before"], matcher === undefined ? {} : { matcher }),
      ]);
      const ctx = toolBefore({
        tool,
        ...(agentTool ? { agent: { name: "claude", event: "PreToolUse", tool: agentTool } } : {}),
      });
      const outcome = await hooks.dispatch("tool_before", ctx);
      expect(outcome.verdict).toBe(runs ? "block" : "allow");
    });
  }

  it("is ignored at events where that agent ignores it (UserPromptSubmit)", async () => {
    const { hooks } = await workspaceWith([claudeHook("m", exitTwo, ["turn_before"], { matcher: "Bash" })]);
    expect((await hooks.dispatch("turn_before", turnBefore())).verdict).toBe("block");
  });

  it("our own matcher object still works on a profile hook", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("m", exitTwo, ["tool_before"], { matcher: { tool: "^bash$" } }),
    ]);
    expect((await hooks.dispatch("tool_before", toolBefore())).verdict).toBe("block");
    expect((await hooks.dispatch("tool_before", toolBefore({ tool: "read_file" }))).verdict).toBe("allow");
  });

  it("an invalid regex, a matcher string without the profile, and an event the profile lacks are refused by name", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("bad-regex", exitTwo, ["tool_before"], { matcher: "(Bash" }),
      { name: "no-profile", engine: "command", command: exitTwo, events: ["tool_before"], matcher: "Bash" },
      claudeHook("no-event", exitTwo, ["llm_before"]),
      claudeHook("fine", "true", ["tool_before"]),
    ]);
    const problems = hooks.problems.map((p) => [p.name, p.code, p.message]);
    expect(problems).toEqual([
      [
        "bad-regex",
        "RUN_ERR_CONFIG_INVALID",
        expect.stringMatching(/matcher: matcher "\(Bash" is not a valid JavaScript regular expression/),
      ],
      ["no-profile", "RUN_ERR_CONFIG_INVALID", expect.stringContaining('needs "profile": "claude"')],
      [
        "no-event",
        "RUN_ERR_CONFIG_INVALID",
        expect.stringContaining("the claude profile has no event for llm_before"),
      ],
    ]);
    expect(
      hooks
        .list()
        .find((c) => c.point === "tool_before")
        ?.hooks.map((h) => h.name),
    ).toContain("fine");
  });
});

describe("answers read by that agent's rules", () => {
  it("updatedInput replaces the whole args object, not just the fields it names", async () => {
    const rewrite = answer({
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "ls" } },
    });
    const { hooks } = await workspaceWith([claudeHook("r", rewrite, ["tool_before"])]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.ctx.args).toEqual({ command: "ls" });
  });

  it("updatedInput's file_path comes back as our path", async () => {
    const rewrite = answer({
      hookSpecificOutput: { updatedInput: { file_path: "/tmp/elsewhere.txt", content: "safe" } },
    });
    const { hooks } = await workspaceWith([claudeHook("r", rewrite, ["tool_before"])]);
    const outcome = await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "write_file", args: { path: "a.txt", content: "x" } }),
    );
    expect(outcome.ctx.args).toEqual({ path: "/tmp/elsewhere.txt", content: "safe" });
  });

  it("permissionDecision ask asks, with its reason", async () => {
    const ask = answer({
      hookSpecificOutput: { permissionDecision: "ask", permissionDecisionReason: "sure?" },
    });
    const { hooks } = await workspaceWith([claudeHook("a", ask, ["tool_before"])]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("ask");
    expect(outcome.asks).toEqual([{ hook: "a", reason: "sure?" }]);
  });

  it("permissionDecision allow adds nothing (it cannot override another hook's block)", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("allow", answer({ hookSpecificOutput: { permissionDecision: "allow" } }), ["tool_before"]),
      claudeHook("deny", exitTwo, ["tool_before"]),
    ]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.blockedBy?.hook).toBe("deny");
  });

  it("the older top-level decision block still blocks at PreToolUse", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("old", answer({ decision: "block", reason: "old style" }), ["tool_before"]),
    ]);
    expect((await hooks.dispatch("tool_before", toolBefore())).blockedBy?.reason).toBe("old style");
  });

  it("updatedToolOutput rewrites a tool's result", async () => {
    const redact = answer({
      hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "[redacted]" },
    });
    const { hooks } = await workspaceWith([claudeHook("redact", redact, ["tool_after"])]);
    const outcome = await hooks.dispatch("tool_after", toolAfter({ result: "AKIAABCDEFGHIJKLMNOP" }));
    expect(outcome.ctx.result).toBe("[redacted]");
  });

  it("exit 2 after a tool sends stderr to the model (the tool already ran: nothing to block)", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("lint", "echo 'lint: 3 errors' >&2; exit 2", ["tool_after"]),
    ]);
    const outcome = await hooks.dispatch("tool_after", toolAfter());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.injects).toEqual([{ hook: "lint", text: "lint: 3 errors" }]);
  });

  it("plain stdout is ignored at PreToolUse (that agent only shows it in its transcript)", async () => {
    const { hooks } = await workspaceWith([claudeHook("chatty", "echo checking...", ["tool_before"])]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.injects).toEqual([]);
    expect(outcome.warnings).toEqual([]);
  });

  it("stdout that starts with { but is not JSON is a hook failure, not silently ignored", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("typo", "echo '{\"decision\": block}'", ["turn_before"]),
    ]);
    const outcome = await hooks.dispatch("turn_before", turnBefore());
    expect(outcome.warnings).toMatchObject([
      { hook: "typo", message: "stdout starts with { but is not valid JSON" },
    ]);
    expect(outcome.injects).toEqual([]);
  });

  it("exit 127 (command not found) is a non-blocking error", async () => {
    const { hooks } = await workspaceWith([
      claudeHook("missing", "no-such-command-anywhere", ["tool_before"]),
    ]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.warnings[0]?.message).toMatch(/exited with code 127: .*not found/);
  });

  it("exit 1 with stdout that is not JSON stays a non-blocking error", async () => {
    const { hooks } = await workspaceWith([claudeHook("one", "echo '{not json'; exit 1", ["tool_before"])]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.warnings).toMatchObject([{ hook: "one", code: "RUN_ERR_COMMAND_FAILED" }]);
  });

  it("a reason longer than 10,000 characters is cut at 10,000", async () => {
    const long = "head -c 20000 /dev/zero | tr '\\0' x >&2; exit 2";
    const { hooks } = await workspaceWith([claudeHook("long", long, ["tool_before"])]);
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.blockedBy?.reason).toBe("x".repeat(10_000));
  });

  it("a script that never reads its stdin still gets to answer", async () => {
    const { hooks } = await workspaceWith([claudeHook("deaf", "echo no >&2; exit 2", ["tool_before"])]);
    const huge = toolBefore({ args: { command: "x".repeat(2_000_000) } });
    expect((await hooks.dispatch("tool_before", huge)).blockedBy?.reason).toBe("no");
  });
});
