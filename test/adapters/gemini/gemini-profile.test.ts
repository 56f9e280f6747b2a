import { describe, expect, it } from "vitest";
import { AgentInputError } from "../../../adapters/agent-input-error.js";
import { memoryContinueGuard } from "../../../adapters/claude/protocol/continue-guard.js";
import { geminiProfile } from "../../../adapters/gemini/profile.js";
import { geminiProfileEvents } from "../../../adapters/gemini/profile-events.js";
import { geminiEventPoint, geminiEvents } from "../../../adapters/gemini/protocol/events.js";
import { handleGeminiEvent } from "../../../adapters/gemini/protocol/handle.js";
import { geminiInputToCtx } from "../../../adapters/gemini/protocol/input.js";
import { profileEvents } from "../../../adapters/profile-events.js";
import { profileNamed } from "../../../adapters/profiles.js";
import { ctxSchema } from "../../../core/events.js";
import type { HookDefinition } from "../../../core/hook.js";
import { hooksOf } from "../../helpers/hooks.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir } from "../../helpers/temp.js";

const common = {
  session_id: "sess-1",
  transcript_path: "/home/me/.gemini/tmp/p/chats/session.jsonl",
  cwd: "/home/me/project",
  timestamp: "2026-12-02T14:55:26.113Z",
};

/** Inputs as Gemini CLI 0.61 sends them (seen from the real binary). */
const inputs: Record<string, Record<string, unknown>> = {
  BeforeTool: { ...common, tool_name: "run_shell_command", tool_input: { command: "rm victim.txt" } },
  AfterTool: {
    ...common,
    tool_name: "run_shell_command",
    tool_input: { command: "cat .env" },
    tool_response: { llmContent: "API_KEY=s3cret\n", returnDisplay: "" },
  },
  BeforeAgent: { ...common, prompt: "Do it" },
  AfterAgent: { ...common, prompt: "Do it", prompt_response: "Done.", stop_hook_active: false },
  SessionStart: { ...common, source: "startup" },
  SessionEnd: { ...common, reason: "exit" },
  PreCompress: { ...common, trigger: "auto" },
  Notification: { ...common, notification_type: "ToolPermission", message: "allow?", details: {} },
};

const input = (event: string, changes: Record<string, unknown> = {}) => ({
  ...inputs[event],
  hook_event_name: event,
  ...changes,
});

async function answer(definitions: HookDefinition[], event: string, changes: Record<string, unknown> = {}) {
  const root = await tempDir();
  return handleGeminiEvent(hooksOf(root, definitions, recordingLogger()), event, input(event, changes), {
    guard: memoryContinueGuard(),
  });
}

const json = (result: { exitCode: number; stdout: string }) => {
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};

describe("the gemini profile", () => {
  it("is registered on both the light and the full route", () => {
    expect(profileEvents("gemini")).toBe(geminiProfileEvents);
    expect(profileNamed("gemini")).toBe(geminiProfile);
  });

  it("maps each of the agent's events to a point; BeforeModel, AfterModel, BeforeToolSelection pass through", () => {
    expect(Object.fromEntries(geminiEvents.map((e) => [e, geminiEventPoint(e)]))).toEqual({
      BeforeTool: "tool_before",
      AfterTool: "tool_after",
      BeforeAgent: "turn_before",
      AfterAgent: "turn_after",
      SessionStart: "agent_before",
      SessionEnd: "agent_after",
      PreCompress: "compact_before",
      Notification: "notify",
    });
    for (const event of ["BeforeModel", "AfterModel", "BeforeToolSelection"]) {
      expect(geminiEventPoint(event)).toBeUndefined();
      expect(geminiInputToCtx({ session_id: "s" }, event)).toEqual({ passthrough: true });
    }
  });

  it.each(geminiEvents)("gives %s a ctx that its point's schema accepts", (event) => {
    const mapped = geminiInputToCtx(input(event));
    if ("passthrough" in mapped) throw new Error("passed through");
    expect(ctxSchema(mapped.point).safeParse(mapped.ctx).success).toBe(true);
    expect(mapped.ctx.agent).toMatchObject({ name: "gemini", event, cwd: "/home/me/project" });
  });

  it("uses our tool names and args, and reads an AfterTool with an error as tool_error", () => {
    const before = geminiInputToCtx(
      input("BeforeTool", { tool_name: "replace", tool_input: { file_path: "/a.ts", old_string: "a" } }),
    );
    expect(before).toMatchObject({
      point: "tool_before",
      ctx: { tool: "write_file", args: { path: "/a.ts", old_string: "a" }, agent: { tool: "replace" } },
    });
    const after = geminiInputToCtx(input("AfterTool"));
    expect(after).toMatchObject({ point: "tool_after", ctx: { tool: "bash", result: "API_KEY=s3cret\n" } });
    const parts = geminiInputToCtx(
      input("AfterTool", { tool_response: { llmContent: [{ text: "a" }, { text: "b" }] } }),
    );
    expect(parts).toMatchObject({ ctx: { result: "ab" } });
    const failed = geminiInputToCtx(
      input("AfterTool", { tool_response: { llmContent: "", error: { message: "no such file" } } }),
    );
    expect(failed).toMatchObject({ point: "tool_error", ctx: { error: "no such file" } });
  });

  it("refuses input that is not the agent's", () => {
    expect(() => geminiInputToCtx([], "BeforeTool")).toThrow(AgentInputError);
    expect(() => geminiInputToCtx({ tool_name: "x" }, "BeforeTool")).toThrow(AgentInputError);
    expect(() => geminiProfile.parseInput("BeforeTool", "{ not json")).toThrow(AgentInputError);
  });

  it("denies a tool call in its own shape: decision deny with the reason, exit 0", async () => {
    const guard: HookDefinition = { name: "guard", on: { tool_before: () => ({ block: "no rm" }) } };
    expect(json(await answer([guard], "BeforeTool"))).toEqual({
      decision: "deny",
      reason: 'Blocked by hook "guard": no rm',
    });
  });

  it("rewrites arguments as hookSpecificOutput.tool_input, the whole object in the agent's names", async () => {
    const rewrite: HookDefinition = {
      name: "rw",
      on: {
        tool_before(ctx) {
          ctx.args.content = "new";
        },
      },
    };
    const body = json(
      await answer([rewrite], "BeforeTool", {
        tool_name: "write_file",
        tool_input: { file_path: "/a.txt", content: "old" },
      }),
    );
    expect(body).toEqual({
      hookSpecificOutput: {
        hookEventName: "BeforeTool",
        tool_input: { file_path: "/a.txt", content: "new" },
      },
    });
  });

  it("rewrites a result as a denied AfterTool whose reason is the new text (with any inject), and injects as additionalContext", async () => {
    const redact: HookDefinition = {
      name: "redact",
      on: {
        tool_after(ctx) {
          ctx.result = ctx.result.replace("s3cret", "[redacted]");
          return { inject: "be careful" };
        },
      },
    };
    const body = json(await answer([redact], "AfterTool"));
    expect(body.decision).toBe("deny");
    expect(body.reason).toContain("API_KEY=[redacted]");
    expect(body.reason).toContain("be careful");
    expect(JSON.stringify(body)).not.toContain("s3cret");
    const inject: HookDefinition = { name: "inj", on: { tool_after: () => ({ inject: "PINEAPPLE" }) } };
    const specific = json(await answer([inject], "AfterTool")).hookSpecificOutput as Record<string, unknown>;
    expect(specific.additionalContext).toContain("PINEAPPLE");
  });

  it("injects at a failed tool (tool_error) as a denied result: its error, then the text", async () => {
    const advise: HookDefinition = { name: "adv", on: { tool_error: () => ({ inject: "check the path" }) } };
    const body = json(
      await answer([advise], "AfterTool", {
        tool_response: { llmContent: "", error: { message: "File not found: x" } },
      }),
    );
    expect(body.decision).toBe("deny");
    expect(body.reason).toMatch(/^File not found: x\n\n<hookyard-inject hook="adv">\ncheck the path/);
  });

  it("blocks a prompt with decision deny; a continue at AfterAgent is a deny whose reason is the next prompt, not while stop_hook_active", async () => {
    const hooks: HookDefinition = {
      name: "h",
      on: { turn_before: () => ({ block: "password" }), turn_after: () => ({ continue: "run the tests" }) },
    };
    expect(json(await answer([hooks], "BeforeAgent"))).toEqual({
      decision: "deny",
      reason: 'Blocked by hook "h": password',
    });
    expect(json(await answer([hooks], "AfterAgent"))).toMatchObject({
      decision: "deny",
      reason: "run the tests",
    });
    const active = json(await answer([hooks], "AfterAgent", { stop_hook_active: true }));
    expect(active.decision).toBeUndefined();
    expect(active.systemMessage).toContain("stop_hook_active");
  });

  it("names an inject it has no place for at that event instead of dropping it silently", async () => {
    const inject: HookDefinition = { name: "inj", on: { tool_before: () => ({ inject: "x" }) } };
    const result = await answer([inject], "BeforeTool");
    expect(json(result).systemMessage).toContain("dropped: Gemini CLI takes no context at BeforeTool");
  });

  it("refuses, when nothing could check it, a tool call and a prompt (exit 2, decision deny), and nothing else", () => {
    for (const event of ["BeforeTool", "BeforeAgent"]) {
      const refusal = geminiProfileEvents.refusal(event, "the daemon is down");
      expect(refusal?.exitCode).toBe(2);
      expect(JSON.parse(refusal?.stdout ?? "")).toMatchObject({ decision: "deny" });
      expect(refusal?.stderr).toContain("the daemon is down");
    }
    for (const event of ["AfterTool", "AfterAgent", "SessionStart", "SessionEnd", "Notification"]) {
      expect(geminiProfileEvents.refusal(event, "x")).toBeUndefined();
    }
  });
});
