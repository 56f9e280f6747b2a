import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ClaudeAnswer,
  fileContinueGuard,
  handleClaudeEvent,
  memoryContinueGuard,
  outputCap,
} from "../../../../adapters/claude/protocol/index.js";
import type { HookDefinition } from "../../../../core/hook.js";
import { hooksOf } from "../../../helpers/hooks.js";
import { recordingLogger } from "../../../helpers/logger.js";
import { tempDir } from "../../../helpers/temp.js";
import { inputFor, type MappedEvent } from "./claude-profile-inputs.js";

/** Runs `event` through trusted hooks defined here; a fresh continue count unless one is given. */
async function answer(
  definitions: HookDefinition[],
  event: MappedEvent,
  changes: Record<string, unknown> = {},
  options: Parameters<typeof handleClaudeEvent>[3] = { guard: memoryContinueGuard() },
): Promise<ClaudeAnswer> {
  const root = await tempDir();
  return handleClaudeEvent(
    hooksOf(root, definitions, recordingLogger()),
    event,
    inputFor(event, changes),
    options,
  );
}

/** The command form says the same as the http body (stdout is that body, or plain text, or nothing). */
function json(result: ClaudeAnswer): Record<string, unknown> {
  expect(result.exitCode).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual(result.body);
  return result.body;
}

const long = "x".repeat(25_000);

describe("the claude profile: output", () => {
  it("says nothing (exit 0, no output, body {}) when no hook decides", async () => {
    const quiet: HookDefinition = { name: "quiet", on: { tool_before() {}, turn_after() {}, notify() {} } };
    for (const event of ["PreToolUse", "Stop", "Notification"] as const) {
      expect(await answer([quiet], event)).toEqual({ exitCode: 0, stdout: "", stderr: "", body: {} });
    }
  });

  it("answers a block at PreToolUse with permissionDecision deny and the reason, naming the hook", async () => {
    const guard: HookDefinition = {
      name: "guard",
      on: { tool_before: () => ({ block: "no edits to a.ts" }) },
    };
    expect(json(await answer([guard], "PreToolUse"))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: 'Blocked by hook "guard": no edits to a.ts',
      },
    });
  });

  it("answers ask with permissionDecision ask, every hook's reason in it", async () => {
    const a: HookDefinition = { name: "a", priority: 1, on: { tool_before: () => ({ ask: "touches src" }) } };
    const b: HookDefinition = { name: "b", priority: 2, on: { tool_before: () => ({ ask: "large edit" }) } };
    expect(json(await answer([a, b], "PreToolUse")).hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "ask",
      permissionDecisionReason: 'hook "a": touches src; hook "b": large edit',
    });
  });

  it("answers a rewrite of args with updatedInput: the whole object, under the agent's field names", async () => {
    const rewriter: HookDefinition = {
      name: "normalise",
      on: {
        tool_before(ctx) {
          ctx.args.path = "/home/me/project/b.ts";
          delete ctx.args.old_string;
        },
      },
    };
    expect(json(await answer([rewriter], "PreToolUse")).hookSpecificOutput).toEqual({
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      permissionDecisionReason: 'arguments rewritten by hook "normalise"',
      // file_path again (the hook saw path), new_string kept, old_string gone: the object replaces the input.
      updatedInput: { file_path: "/home/me/project/b.ts", new_string: "b" },
    });
  });

  it("keeps updatedInput beside an ask, and drops it under a block", async () => {
    const rewrite: HookDefinition = {
      name: "rewrite",
      priority: 1,
      on: { tool_before: () => ({ rewrite: { args: { command: "ls -la" } } }) },
    };
    const ask: HookDefinition = { name: "ask", priority: 2, on: { tool_before: () => ({ ask: "sure?" }) } };
    const block: HookDefinition = {
      name: "block",
      priority: 3,
      on: { tool_before: () => ({ block: "no" }) },
    };
    const bash = { tool_name: "Bash", tool_input: { command: "ls" } };
    expect(json(await answer([rewrite, ask], "PreToolUse", bash)).hookSpecificOutput).toMatchObject({
      permissionDecision: "ask",
      updatedInput: { command: "ls -la" },
    });
    const blocked = json(await answer([rewrite, ask, block], "PreToolUse", bash)).hookSpecificOutput;
    expect(blocked).toMatchObject({ permissionDecision: "deny" });
    expect(blocked).not.toHaveProperty("updatedInput");
  });

  it("answers a rewrite of a tool result with updatedToolOutput, in the shape the tool answered", async () => {
    const redact: HookDefinition = {
      name: "redact",
      on: {
        tool_after(ctx) {
          ctx.result = ctx.result.replace(/AKIA[0-9A-Z]{16}/g, "[redacted]");
        },
      },
    };
    expect(json(await answer([redact], "PostToolUse")).hookSpecificOutput).toEqual({
      hookEventName: "PostToolUse",
      updatedToolOutput: { stdout: "KEY=[redacted]", stderr: "", interrupted: false },
    });
    const text = await answer([redact], "PostToolUse", { tool_response: "KEY=AKIAABCDEFGHIJKLMNOP" });
    expect(json(text).hookSpecificOutput).toMatchObject({ updatedToolOutput: "KEY=[redacted]" });
  });

  it("a redactor that matches whole lines finds them in an object result (Bash's stdout and stderr, a Read), not JSON with its newlines escaped", async () => {
    const perLine: HookDefinition = {
      name: "per-line",
      on: {
        tool_after(ctx) {
          ctx.result = ctx.result.replace(/^([A-Z_]+)=.*$/gm, "$1=[redacted]");
        },
      },
    };
    const bash = {
      tool_name: "Bash",
      tool_response: {
        stdout: "HOME=/root\nAPI_KEY=s3cr3t\n",
        stderr: "DB_PASS=hunter2",
        interrupted: false,
      },
    };
    const out = json(await answer([perLine], "PostToolUse", bash)).hookSpecificOutput as Record<
      string,
      unknown
    >;
    expect(out.updatedToolOutput).toEqual({
      stdout: "HOME=[redacted]\nAPI_KEY=[redacted]\n\nDB_PASS=[redacted]",
      stderr: "",
      interrupted: false,
    });
    expect(JSON.stringify(out)).not.toMatch(/s3cr3t|hunter2/);
    const read = {
      tool_name: "Read",
      tool_input: { file_path: "/w/.env" },
      tool_response: {
        type: "text",
        file: { filePath: "/w/.env", content: "A=1\nTOKEN=abc\n", numLines: 3, startLine: 1, totalLines: 3 },
      },
    };
    const fromRead = json(await answer([perLine], "PostToolUse", read)).hookSpecificOutput;
    expect(JSON.stringify(fromRead)).toContain("TOKEN=[redacted]");
    expect(JSON.stringify(fromRead)).not.toContain("abc");
  });

  it("a text rewrite of an object result goes back in that tool's shape (Bash, Read), never as a string the agent drops", async () => {
    const replace = (text: string): HookDefinition => ({
      name: "replace",
      on: {
        tool_after(ctx) {
          ctx.result = text;
        },
      },
    });
    // Bash: the text is the whole output now; stderr, which could hold the secret too, is emptied.
    const bash = {
      tool_name: "Bash",
      tool_response: {
        stdout: "KEY=AKIAABCDEFGHIJKLMNOP",
        stderr: "AKIA…",
        interrupted: false,
        isImage: false,
      },
    };
    expect(json(await answer([replace("[output hidden]")], "PostToolUse", bash)).hookSpecificOutput).toEqual({
      hookEventName: "PostToolUse",
      updatedToolOutput: { stdout: "[output hidden]", stderr: "", interrupted: false, isImage: false },
    });
    // JSON that is not Bash's shape is text too, not an object the agent would drop.
    const wrongShape = json(await answer([replace('{"out":"x"}')], "PostToolUse", bash));
    expect(wrongShape.hookSpecificOutput).toMatchObject({
      updatedToolOutput: { stdout: '{"out":"x"}', stderr: "", interrupted: false },
    });
    const read = {
      tool_name: "Read",
      tool_input: { file_path: "/w/.env" },
      tool_response: {
        type: "text",
        file: { filePath: "/w/.env", content: "KEY=AKIA\nB=1\n", numLines: 3, startLine: 1, totalLines: 3 },
      },
    };
    expect(json(await answer([replace("KEY=[redacted]")], "PostToolUse", read)).hookSpecificOutput).toEqual({
      hookEventName: "PostToolUse",
      updatedToolOutput: {
        type: "text",
        file: { filePath: "/w/.env", content: "KEY=[redacted]", numLines: 1, startLine: 1, totalLines: 3 },
      },
    });
    const fetched = {
      tool_name: "WebFetch",
      tool_response: {
        bytes: 9,
        code: 200,
        codeText: "OK",
        result: "key=AKIA",
        durationMs: 5,
        url: "https://x",
      },
    };
    expect(
      json(await answer([replace("key=[redacted]")], "PostToolUse", fetched)).hookSpecificOutput,
    ).toEqual({
      hookEventName: "PostToolUse",
      updatedToolOutput: { ...fetched.tool_response, result: "key=[redacted]", bytes: 14 },
    });
    // An MCP tool's result is not checked by the agent: text stays text.
    const mcp = { tool_name: "mcp__db__query", tool_response: [{ type: "text", text: "AKIA" }] };
    expect(json(await answer([replace("[redacted]")], "PostToolUse", mcp)).hookSpecificOutput).toMatchObject({
      updatedToolOutput: "[redacted]",
    });
  });

  it("a text rewrite of an object result whose shape hookyard does not know stops the agent, naming the tool, rather than let the original through", async () => {
    const replace: HookDefinition = {
      name: "redactor",
      on: {
        tool_after(ctx) {
          ctx.result = "[redacted]";
        },
      },
    };
    const write = {
      tool_name: "Write",
      tool_response: {
        type: "create",
        filePath: "/w/a",
        content: "AKIA",
        structuredPatch: [],
        originalFile: null,
      },
    };
    const notebook = {
      tool_name: "Read",
      tool_response: { type: "notebook", file: { filePath: "/w/n.ipynb", cells: [] } },
    };
    for (const input of [write, notebook]) {
      const body = json(await answer([replace], "PostToolUse", input));
      expect(body).not.toHaveProperty("hookSpecificOutput");
      expect(body.continue).toBe(false);
      expect(body.stopReason).toContain(
        `the rewrite of ${input.tool_name}'s result by hook "redactor" could not be applied`,
      );
      expect(body.stopReason).toContain("which hookyard does not know");
      expect(body.systemMessage).toBe(body.stopReason);
    }
    // A rewrite that kept the JSON whole is sent as it is: the shape is the tool's own.
    const kept: HookDefinition = {
      name: "kept",
      on: {
        tool_after(ctx) {
          ctx.result = ctx.result.replace("AKIA", "[redacted]");
        },
      },
    };
    expect(json(await answer([kept], "PostToolUse", write)).hookSpecificOutput).toMatchObject({
      updatedToolOutput: { ...write.tool_response, content: "[redacted]" },
    });
  });

  it("answers inject with additionalContext tagged with the hook, and notice with systemMessage", async () => {
    const both: HookDefinition = {
      name: "advisor",
      on: {
        tool_error: () => ({ inject: "the file was moved to docs/", notice: "told the model where it went" }),
      },
    };
    expect(json(await answer([both], "PostToolUseFailure"))).toEqual({
      systemMessage: "advisor: told the model where it went",
      hookSpecificOutput: {
        hookEventName: "PostToolUseFailure",
        additionalContext:
          '<hookyard-inject hook="advisor">\nthe file was moved to docs/\n</hookyard-inject>',
      },
    });
  });

  it.each(["UserPromptSubmit", "SessionStart"] as const)(
    "writes an inject alone at %s as plain text on stdout, which that event takes as context",
    async (event) => {
      const context: HookDefinition = {
        name: "ctx",
        on: {
          turn_before: () => ({ inject: "branch: main" }),
          agent_before: () => ({ inject: "branch: main" }),
        },
      };
      const result = await answer([context], event);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('<hookyard-inject hook="ctx">\nbranch: main\n</hookyard-inject>');
      expect(result.body).toEqual({
        hookSpecificOutput: { hookEventName: event, additionalContext: result.stdout },
      });
    },
  );

  it("writes JSON, not plain text, at PreToolUse, where plain stdout is no context", async () => {
    const context: HookDefinition = { name: "ctx", on: { tool_before: () => ({ inject: "careful" }) } };
    expect(json(await answer([context], "PreToolUse")).hookSpecificOutput).toMatchObject({
      additionalContext: '<hookyard-inject hook="ctx">\ncareful\n</hookyard-inject>',
    });
  });

  it("blocks a prompt with exit 2 and the reason on stderr, the protocol's prompt block", async () => {
    const guard: HookDefinition = {
      name: "no-secrets",
      on: { turn_before: () => ({ block: "the prompt holds a key", notice: "prompt refused" }) },
    };
    const result = await answer([guard], "UserPromptSubmit");
    expect(result).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: 'Blocked by hook "no-secrets": the prompt holds a key\nno-secrets: prompt refused',
      body: {
        decision: "block",
        reason: 'Blocked by hook "no-secrets": the prompt holds a key',
        systemMessage: "no-secrets: prompt refused",
      },
    });
  });

  it("tells the user that a rewritten prompt cannot be applied, rather than pretend", async () => {
    const rewrite: HookDefinition = {
      name: "polish",
      on: { turn_before: () => ({ rewrite: { prompt: "x" } }) },
    };
    const body = json(await answer([rewrite], "UserPromptSubmit"));
    expect(body.systemMessage).toMatch(/hook "polish" rewrote the prompt, which Claude Code cannot change/);
  });

  it("answers continue at Stop with decision block, the reason and the injects for the model", async () => {
    const more: HookDefinition = {
      name: "tests-first",
      on: { turn_after: () => ({ continue: "run the tests before stopping", inject: "npm test" }) },
    };
    expect(json(await answer([more], "Stop"))).toEqual({
      decision: "block",
      reason:
        'run the tests before stopping\n\n<hookyard-inject hook="tests-first">\nnpm test\n</hookyard-inject>',
    });
  });

  it("lets the agent stop when stop_hook_active is true, and says why", async () => {
    const more: HookDefinition = { name: "again", on: { turn_after: () => ({ continue: "once more" }) } };
    const body = json(await answer([more], "SubagentStop", { stop_hook_active: true }));
    expect(body).not.toHaveProperty("decision");
    expect(body.systemMessage).toMatch(/continue from hook "again" ignored: .*stop_hook_active/);
  });

  it("caps consecutive continues per session at 3, kept in .hookyard/state, and starts over after a stop", async () => {
    const root = await tempDir();
    const more: HookDefinition = { name: "again", on: { turn_after: () => ({ continue: "once more" }) } };
    const hooks = { ...hooksOf(root, [more], recordingLogger()), root };
    const stop = (session: string) =>
      handleClaudeEvent(hooks, "Stop", inputFor("Stop", { session_id: session }));
    const answers: ClaudeAnswer[] = [];
    for (let i = 0; i < 5; i++) answers.push(await stop("s-a"));
    expect(answers.map((a) => a.body.decision)).toEqual(["block", "block", "block", undefined, "block"]);
    expect(answers[3]?.body.systemMessage).toBe(
      'hookyard: continue from hook "again" ignored: this session already went on 3 times in a row at a stop (at most 3)',
    );
    // Another session has its own count, in its own file.
    expect((await stop("s-b")).body.decision).toBe("block");
    expect(await readdir(join(root, ".hookyard", "state", "claude-continues"))).toHaveLength(2);
  });

  it("counts in a file that the next process reads: a guard on the same root sees the same count", async () => {
    const root = await tempDir();
    await fileContinueGuard(root).set("s:Stop", 3);
    expect(await fileContinueGuard(root).count("s:Stop")).toBe(3);
    await fileContinueGuard(root).set("s:Stop", 0);
    expect(await fileContinueGuard(root).count("s:Stop")).toBe(0);
  });

  it("names on stderr an inject the agent has no place for at an event, and says nothing else", async () => {
    const inject: HookDefinition = { name: "chatty", on: { notify: () => ({ inject: "context" }) } };
    const result = await answer([inject], "Notification");
    expect(result).toMatchObject({ exitCode: 0, stdout: "", body: {} });
    expect(result.stderr).toBe(
      'hookyard: warning: inject from hook "chatty" dropped: Claude Code takes no context at Notification\n',
    );
  });

  it("tells the user in systemMessage when a hook failed open", async () => {
    const broken: HookDefinition = {
      name: "broken",
      on: {
        tool_before() {
          throw new Error("boom");
        },
      },
    };
    const body = json(await answer([broken], "PreToolUse"));
    expect(body.systemMessage).toBe('hookyard: hook "broken" failed at tool_before and was ignored: boom');
  });

  it("holds every string it writes to 10,000 characters", async () => {
    const loud: HookDefinition = {
      name: "loud",
      on: {
        tool_before: () => ({ block: long, inject: long, notice: long }),
        tool_after: (ctx) => {
          ctx.result = long;
          return { inject: long };
        },
        turn_before: () => ({ block: long, notice: long }),
        turn_after: () => ({ continue: long }),
        agent_before: () => ({ inject: long }),
      },
    };
    const results = [
      await answer([loud], "PreToolUse"),
      await answer([loud], "PostToolUse"),
      await answer([loud], "UserPromptSubmit"),
      await answer([loud], "Stop"),
      await answer([loud], "SessionStart"),
    ];
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === "string") strings.push(value);
      else if (value && typeof value === "object") Object.values(value).forEach(collect);
    };
    for (const result of results) {
      collect(result.body);
      if (result.exitCode === 2) strings.push(result.stderr);
      else if (!result.stdout.startsWith("{")) strings.push(result.stdout);
    }
    expect(strings.filter((s) => s.length > 9_000).length).toBeGreaterThanOrEqual(9);
    expect(strings.every((s) => s.length <= outputCap)).toBe(true);
    expect(
      strings
        .filter((s) => s.length > 9_000)
        .every((s) => s.endsWith("[cut by hookyard at 10000 characters]")),
    ).toBe(true);
  });
});
