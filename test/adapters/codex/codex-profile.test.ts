import { describe, expect, it } from "vitest";
import { AgentInputError } from "../../../adapters/agent-input-error.js";
import { memoryContinueGuard } from "../../../adapters/claude/protocol/continue-guard.js";
import { claudeInputToCtx } from "../../../adapters/claude/protocol/input.js";
import { codexProfile } from "../../../adapters/codex/profile.js";
import { codexProfileEvents } from "../../../adapters/codex/profile-events.js";
import { codexEventPoint, codexEvents } from "../../../adapters/codex/protocol/events.js";
import { codexDialect, handleCodexEvent } from "../../../adapters/codex/protocol/handle.js";
import { profileEvents } from "../../../adapters/profile-events.js";
import { profileNamed } from "../../../adapters/profiles.js";
import { ctxSchema } from "../../../core/events.js";
import type { HookDefinition } from "../../../core/hook.js";
import { hooksOf } from "../../helpers/hooks.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir } from "../../helpers/temp.js";

const common = {
  session_id: "01a237aa-67d0-7a90-a449-141075cd60e5",
  transcript_path: "/home/me/.codex/sessions/2026/12/02/rollout.jsonl",
  cwd: "/home/me/project",
  model: "gpt-5",
  permission_mode: "bypassPermissions",
};
const turn = { turn_id: "01a237aa-6857-7f32-a2b8-e08a074a1a80" };

/** Inputs as Codex 0.171 sends them (seen from the real binary). */
const inputs: Record<string, Record<string, unknown>> = {
  PreToolUse: {
    ...common,
    ...turn,
    tool_name: "Bash",
    tool_input: { command: "rm victim.txt" },
    tool_use_id: "call1",
  },
  PostToolUse: {
    ...common,
    ...turn,
    tool_name: "Bash",
    tool_input: { command: "cat .env" },
    tool_response: "API_KEY=s3cret\n",
    tool_use_id: "call1",
  },
  UserPromptSubmit: { ...common, ...turn, prompt: "Do it" },
  Stop: { ...common, ...turn, stop_hook_active: false, last_assistant_message: "Done." },
  SessionStart: { ...common, source: "startup" },
  SessionEnd: { session_id: common.session_id, cwd: common.cwd, reason: "other" },
  PreCompact: { ...common, trigger: "auto" },
};

const input = (event: string, changes: Record<string, unknown> = {}) => ({
  ...inputs[event],
  hook_event_name: event,
  ...changes,
});

async function answer(definitions: HookDefinition[], event: string, changes: Record<string, unknown> = {}) {
  const root = await tempDir();
  return handleCodexEvent(hooksOf(root, definitions, recordingLogger()), event, input(event, changes), {
    guard: memoryContinueGuard(),
  });
}

const json = (result: { exitCode: number; stdout: string }) => {
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};

describe("the codex profile", () => {
  it("is registered on both the light and the full route", () => {
    expect(profileEvents("codex")).toBe(codexProfileEvents);
    expect(profileNamed("codex")).toBe(codexProfile);
  });

  it("maps Codex's events to points; the ones it lacks or hookyard does not route pass through", () => {
    expect(Object.fromEntries(codexEvents.map((e) => [e, codexEventPoint(e)]))).toEqual({
      PreToolUse: "tool_before",
      PostToolUse: "tool_after",
      UserPromptSubmit: "turn_before",
      Stop: "turn_after",
      SessionStart: "agent_before",
      SessionEnd: "agent_after",
      PreCompact: "compact_before",
    });
    for (const event of ["PermissionRequest", "PostCompact", "Notification", "PostToolUseFailure"]) {
      expect(claudeInputToCtx({ session_id: "s" }, event, codexDialect)).toEqual({ passthrough: true });
    }
  });

  it.each(codexEvents)("gives %s a ctx that its point's schema accepts, as Codex's", (event) => {
    const mapped = claudeInputToCtx(input(event), undefined, codexDialect);
    if ("passthrough" in mapped) throw new Error("passed through");
    expect(ctxSchema(mapped.point).safeParse(mapped.ctx).success).toBe(true);
    expect(mapped.ctx.agent).toMatchObject({ name: "codex", event, cwd: "/home/me/project" });
  });

  it("reads Bash as our bash with its command, its string result as the result, turn_id and model as extra", () => {
    const after = claudeInputToCtx(input("PostToolUse"), undefined, codexDialect);
    expect(after).toMatchObject({
      point: "tool_after",
      ctx: {
        tool: "bash",
        args: { command: "cat .env" },
        result: "API_KEY=s3cret\n",
        callId: "call1",
        agent: { tool: "Bash", extra: { turn_id: turn.turn_id, model: "gpt-5" } },
      },
    });
  });

  it("refuses input that is not the agent's", () => {
    expect(() => codexProfile.parseInput("PreToolUse", "{ not json")).toThrow(AgentInputError);
    expect(() => codexProfile.parseInput("PreToolUse", '{"tool_name":"Bash"}')).toThrow(AgentInputError);
  });

  it("denies a tool call with permissionDecision deny; an ask, which Codex cannot take, is a deny that says so", async () => {
    const guard: HookDefinition = { name: "guard", on: { tool_before: () => ({ block: "no rm" }) } };
    expect(json(await answer([guard], "PreToolUse"))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Blocked by hook "guard": no rm',
      },
    });
    const ask: HookDefinition = { name: "asker", on: { tool_before: () => ({ ask: "sure?" }) } };
    const specific = json(await answer([ask], "PreToolUse")).hookSpecificOutput as Record<string, unknown>;
    expect(specific.permissionDecision).toBe("deny");
    expect(specific.permissionDecisionReason).toContain("Codex cannot ask you from a hook");
    expect(specific.permissionDecisionReason).toContain('hook "asker": sure?');
  });

  it("rewrites arguments as allow with updatedInput, the whole object", async () => {
    const rewrite: HookDefinition = {
      name: "rw",
      on: {
        tool_before(ctx) {
          ctx.args.command = "echo REWRITTEN";
        },
      },
    };
    const specific = json(await answer([rewrite], "PreToolUse")).hookSpecificOutput as Record<
      string,
      unknown
    >;
    expect(specific).toMatchObject({
      permissionDecision: "allow",
      updatedInput: { command: "echo REWRITTEN" },
    });
  });

  it("rewrites a result as PostToolUse decision block, whose reason (what the model gets instead) is the new text; never updatedToolOutput, never empty", async () => {
    const redact: HookDefinition = {
      name: "redact",
      on: {
        tool_after(ctx) {
          ctx.result = ctx.result.replace("s3cret", "[redacted]");
          return { inject: "be careful" };
        },
      },
    };
    const body = json(await answer([redact], "PostToolUse"));
    expect(body).toMatchObject({ decision: "block", reason: "API_KEY=[redacted]\n" });
    expect((body.hookSpecificOutput as Record<string, unknown>).additionalContext).toContain("be careful");
    expect(JSON.stringify(body)).not.toContain("s3cret");
    expect(JSON.stringify(body)).not.toContain("updatedToolOutput");
    const wipe: HookDefinition = {
      name: "wipe",
      on: {
        tool_after(ctx) {
          ctx.result = "";
        },
      },
    };
    expect(json(await answer([wipe], "PostToolUse")).reason).toBe('[the result was removed by hook "wipe"]');
  });

  it("blocks a prompt with exit 2 and the reason on stderr; a continue at Stop is decision block, not while stop_hook_active", async () => {
    const hooks: HookDefinition = {
      name: "h",
      on: { turn_before: () => ({ block: "password" }), turn_after: () => ({ continue: "run the tests" }) },
    };
    const blocked = await answer([hooks], "UserPromptSubmit");
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stderr).toContain('Blocked by hook "h": password');
    expect(json(await answer([hooks], "Stop"))).toMatchObject({ decision: "block", reason: "run the tests" });
    const active = json(await answer([hooks], "Stop", { stop_hook_active: true }));
    expect(active.decision).toBeUndefined();
    expect(active.systemMessage).toContain("Codex is already going on");
  });

  it("injects at SessionStart as JSON additionalContext, and names one it has no place for", async () => {
    const inject: HookDefinition = { name: "inj", on: { agent_before: () => ({ inject: "CONTEXT" }) } };
    const specific = json(await answer([inject], "SessionStart")).hookSpecificOutput as Record<
      string,
      unknown
    >;
    expect(specific.additionalContext).toContain("CONTEXT");
    const lost: HookDefinition = { name: "inj", on: { turn_after: () => ({ inject: "x" }) } };
    expect((await answer([lost], "Stop")).stderr).toContain("dropped: Codex takes no context at Stop");
  });

  it("refuses a tool call and a prompt it could not check, in Codex's reading; other events get nothing", () => {
    const tool = codexProfileEvents.refusal("PreToolUse", "the daemon is down");
    expect(JSON.parse(tool?.stdout ?? "{}").hookSpecificOutput.permissionDecision).toBe("deny");
    const prompt = codexProfileEvents.refusal("UserPromptSubmit", "the daemon is down");
    expect(prompt?.exitCode).toBe(2);
    expect(prompt?.stderr).toContain("the daemon is down");
    expect(codexProfileEvents.refusal("PostToolUse", "x")).toBeUndefined();
  });
});
