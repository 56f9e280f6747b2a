import { describe, expect, it } from "vitest";
import { AgentInputError } from "../../../adapters/agent-input-error.js";
import { memoryContinueGuard } from "../../../adapters/claude/protocol/continue-guard.js";
import { piProfile } from "../../../adapters/pi/profile.js";
import { piProfileEvents } from "../../../adapters/pi/profile-events.js";
import { piEventPoint, piEvents } from "../../../adapters/pi/protocol/events.js";
import { handlePiEvent } from "../../../adapters/pi/protocol/handle.js";
import { piInputToCtx } from "../../../adapters/pi/protocol/input.js";
import { profileEvents } from "../../../adapters/profile-events.js";
import { profileNamed } from "../../../adapters/profiles.js";
import { ctxSchema } from "../../../core/events.js";
import type { HookDefinition } from "../../../core/hook.js";
import { hooksOf } from "../../helpers/hooks.js";
import { recordingLogger } from "../../helpers/logger.js";
import { tempDir } from "../../helpers/temp.js";

const common = { session_id: "sess-1", cwd: "/home/me/project" };

/** Inputs as hookyard's Pi extension sends them (Pi 0.73's event fields, plus session_id and cwd). */
const inputs: Record<string, Record<string, unknown>> = {
  tool_call: { ...common, toolName: "bash", toolCallId: "toolu_1", input: { command: "rm victim.txt" } },
  tool_result: {
    ...common,
    toolName: "read",
    toolCallId: "toolu_2",
    input: { path: "/home/me/project/.env" },
    content: [
      { type: "text", text: "API_KEY=s3cret\n" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ],
    isError: false,
  },
  input: { ...common, text: "Do it", source: "interactive" },
  agent_end: {
    ...common,
    messages: [
      { role: "user", content: [{ type: "text", text: "Do it" }] },
      { role: "assistant", content: [{ type: "text", text: "I am done." }] },
    ],
    continued: false,
  },
  session_start: { ...common, reason: "startup" },
  session_shutdown: { ...common, reason: "quit" },
};

const input = (event: string, changes: Record<string, unknown> = {}) => ({
  ...inputs[event],
  hook_event_name: event,
  ...changes,
});

async function answer(
  definitions: HookDefinition[],
  event: string,
  changes: Record<string, unknown> = {},
  guard = memoryContinueGuard(),
) {
  const root = await tempDir();
  return handlePiEvent(hooksOf(root, definitions, recordingLogger()), event, input(event, changes), {
    guard,
  });
}

const json = (result: { exitCode: number; stdout: string }) => {
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
};

describe("the pi profile", () => {
  it("is registered on both the light and the full route, and maps each routed event to a point", () => {
    expect(profileEvents("pi")).toBe(piProfileEvents);
    expect(profileNamed("pi")).toBe(piProfile);
    expect(Object.fromEntries(piEvents.map((e) => [e, piEventPoint(e)]))).toEqual({
      tool_call: "tool_before",
      tool_result: "tool_after",
      input: "turn_before",
      agent_end: "turn_after",
      session_start: "agent_before",
      session_shutdown: "agent_after",
    });
    expect(piEventPoint("context")).toBeUndefined();
  });

  it("reads each event into a ctx its point accepts; Pi's tools get our names; a failed result fires tool_error", () => {
    for (const event of piEvents) {
      const mapped = piInputToCtx(input(event), event);
      if ("passthrough" in mapped) throw new Error(`${event} passed through`);
      expect(ctxSchema(mapped.point).safeParse(mapped.ctx).success, event).toBe(true);
    }
    const read = piInputToCtx(input("tool_result"), "tool_result");
    expect(read).toMatchObject({
      point: "tool_after",
      ctx: { tool: "read_file", result: "API_KEY=s3cret\n" },
    });
    const failed = piInputToCtx(input("tool_result", { isError: true }), "tool_result");
    expect(failed).toMatchObject({ point: "tool_error", ctx: { error: "API_KEY=s3cret\n" } });
    const end = piInputToCtx(input("agent_end"), "agent_end");
    expect(end).toMatchObject({ ctx: { answer: "I am done." } });
    expect(() => piInputToCtx({ toolName: "bash" }, "tool_call")).toThrow(AgentInputError);
  });

  it("block, ask and argument rewrite at tool_call, as the extension carries them out", async () => {
    const guard: HookDefinition = { name: "guard", on: { tool_before: () => ({ block: "no rm" }) } };
    expect(json(await answer([guard], "tool_call"))).toEqual({
      block: true,
      reason: 'Blocked by hook "guard": no rm',
    });
    const asker: HookDefinition = { name: "asker", on: { tool_before: () => ({ ask: "sure?" }) } };
    expect(json(await answer([asker], "tool_call"))).toEqual({ ask: 'hook "asker": sure?' });
    const rewriter: HookDefinition = {
      name: "rewriter",
      on: {
        tool_before: (ctx) => {
          ctx.args.command = "echo safe";
        },
      },
    };
    expect(json(await answer([rewriter], "tool_call"))).toEqual({ input: { command: "echo safe" } });
  });

  it("a result rewrite keeps the parts that are not text, with an inject after the text; an inject where Pi takes none is a notice", async () => {
    const redactor: HookDefinition = {
      name: "redactor",
      on: {
        tool_after: (ctx) => {
          ctx.result = "[redacted]";
          return { inject: "mind the key" };
        },
      },
    };
    const out = json(await answer([redactor], "tool_result"));
    expect(out.content).toEqual([
      {
        type: "text",
        text: '[redacted]\n\n<hookyard-inject hook="redactor">\nmind the key\n</hookyard-inject>',
      },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ]);
    const late: HookDefinition = { name: "late", on: { turn_after: () => ({ inject: "too late" }) } };
    expect(json(await answer([late], "agent_end")).notice).toContain(
      "dropped: Pi takes no context at turn_after",
    );
  });

  it("a prompt block is handled, a rewrite a transform; a continue at agent_end is passed on at most 3 times in a row", async () => {
    const blocker: HookDefinition = { name: "b", on: { turn_before: () => ({ block: "password" }) } };
    expect(json(await answer([blocker], "input"))).toEqual({
      action: "handled",
      reason: 'Blocked by hook "b": password',
    });
    const rewriter: HookDefinition = {
      name: "r",
      on: {
        turn_before: (ctx) => {
          ctx.prompt = "Do it carefully";
        },
      },
    };
    expect(json(await answer([rewriter], "input"))).toEqual({ action: "transform", text: "Do it carefully" });
    const stopper: HookDefinition = { name: "s", on: { turn_after: () => ({ continue: "run the tests" }) } };
    const guard = memoryContinueGuard();
    for (let i = 0; i < 3; i++) {
      expect(json(await answer([stopper], "agent_end", {}, guard))).toEqual({ continue: "run the tests" });
    }
    const fourth = json(await answer([stopper], "agent_end", {}, guard));
    expect(fourth.continue).toBeUndefined();
    expect(fourth.notice).toContain("already went on 3 times in a row");
  });
});
