import { describe, expect, it } from "vitest";
import { handleClaudeEvent, memoryContinueGuard } from "../../../../adapters/claude/protocol/index.js";
import type { HookDefinition, Matcher } from "../../../../core/hook.js";
import { compileMatcher } from "../../../../runner/chain/matcher.js";
import { toolBefore } from "../../../helpers/ctx.js";
import { hooksOf } from "../../../helpers/hooks.js";
import { recordingLogger } from "../../../helpers/logger.js";
import { tempDir } from "../../../helpers/temp.js";
import { inputFor } from "./claude-profile-inputs.js";

const tools = [
  "Bash",
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "LS",
  "Glob",
  "Grep",
  "mcp__github__create_issue",
];

/** The agent's tools that a hook with `matcher` (at PreToolUse) runs for. */
async function matched(matcher: Matcher): Promise<string[]> {
  const root = await tempDir();
  const seen: string[] = [];
  const hook: HookDefinition = {
    name: "probe",
    matcher,
    on: {
      tool_before(ctx) {
        seen.push((ctx.agent as { tool: string }).tool);
      },
    },
  };
  const hooks = hooksOf(root, [hook], recordingLogger());
  for (const tool of tools) {
    await handleClaudeEvent(
      hooks,
      "PreToolUse",
      inputFor("PreToolUse", { tool_name: tool, tool_input: {} }),
      {
        guard: memoryContinueGuard(),
      },
    );
  }
  return seen;
}

describe("the claude profile: our matchers on the agent's tools", () => {
  it("matches our tool names: one write_file matcher covers Write, Edit and MultiEdit", async () => {
    expect(await matched({ tool: "^write_file$" })).toEqual(["Write", "Edit", "MultiEdit"]);
  });

  it("matches the agent's own name as agent.tool", async () => {
    expect(await matched({ "agent.tool": "^Edit$" })).toEqual(["Edit"]);
  });

  it("matches a | list, of ours or of theirs", async () => {
    expect(await matched({ tool: "^(bash|read_file)$" })).toEqual(["Bash", "Read"]);
    expect(await matched({ "agent.tool": "^(Bash|Write)$" })).toEqual(["Bash", "Write"]);
  });

  it("matches a regex across tools (every MCP tool, every list_dir)", async () => {
    expect(await matched({ "agent.tool": "^mcp__" })).toEqual(["mcp__github__create_issue"]);
    expect(await matched({ tool: "^list_dir$" })).toEqual(["LS", "Glob"]);
  });

  it("matches every tool with .* and with no matcher at all", async () => {
    expect(await matched({ tool: ".*" })).toEqual(tools);
    expect(await matched({})).toEqual(tools);
  });

  it("needs both when a matcher names ours and theirs", async () => {
    expect(await matched({ tool: "^write_file$", "agent.tool": "^(Edit|Bash)$" })).toEqual(["Edit"]);
  });

  it("does not match an original name against our field, nor ours against agent.tool", async () => {
    expect(await matched({ tool: "^Edit$" })).toEqual([]);
    expect(await matched({ "agent.tool": "^write_file$" })).toEqual([]);
  });

  it("tells Stop from SubagentStop with agent.event, which every point may test", async () => {
    const root = await tempDir();
    const seen: string[] = [];
    const hook: HookDefinition = {
      name: "sub-only",
      matcher: { "agent.event": "^SubagentStop$" },
      on: {
        turn_after(ctx) {
          seen.push(String((ctx.agent as { event: string }).event));
        },
      },
    };
    const hooks = hooksOf(root, [hook], recordingLogger());
    for (const event of ["Stop", "SubagentStop"] as const) {
      await handleClaudeEvent(hooks, event, inputFor(event), { guard: memoryContinueGuard() });
    }
    expect(seen).toEqual(["SubagentStop"]);
  });

  it("tests agent.tool only where tool is a field, as it does tool", () => {
    const tests = compileMatcher({ "agent.tool": "^Edit$" }, "h", ["tool_before", "agent_before"]);
    const session = { sessionId: "s", cwd: "/", config: {}, depth: 0, agent: { name: "claude" } };
    expect(tests.get("agent_before")?.(session)).toBe(true);
    expect(tests.get("tool_before")?.(toolBefore({ agent: { tool: "Edit" } } as never))).toBe(true);
  });

  it("does not run an agent.* hook in hookyard's own loop, whose ctx has no agent", () => {
    const test = compileMatcher({ "agent.tool": "^Edit$" }, "h", ["tool_before"]).get("tool_before");
    expect(test?.(toolBefore())).toBe(false);
    expect(test?.(toolBefore({ agent: "Edit" } as never))).toBe(false);
  });

  it("still refuses a field no point has, and agent. with nothing after it", () => {
    expect(() => compileMatcher({ nonsense: "x" }, "h", ["tool_before"])).toThrow(
      /exists at none of its points/,
    );
    expect(() => compileMatcher({ "agent.": "x" }, "h", ["tool_before"])).toThrow(
      /exists at none of its points/,
    );
    expect(() => compileMatcher({ "agent.tool": "(" }, "h", ["tool_before"])).toThrow(
      /not a valid JavaScript regular expression/,
    );
  });
});
