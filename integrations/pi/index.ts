/**
 * hookyard's Pi extension: routes Pi's events to hookyard, and hookyard's answers back onto what
 * Pi lets an extension do. Each event runs `hookyard exec --profile pi <event>` with the event as
 * JSON on stdin (hookyard's per-workspace daemon answers it). At a tool call and a prompt, any
 * failure to get an answer (hookyard not there, crashed, a bad answer, too slow) refuses the call
 * or the prompt, with the reason: nothing goes through unchecked.
 *
 * Self-contained on purpose: `hookyard install-into pi` copies this file into the project's
 * `.pi/extensions/hookyard/` (an extension Pi cannot load is skipped, and Pi goes on unguarded,
 * so it imports nothing but node's own modules), with `command.json` beside it naming the
 * hookyard to run. It imports nothing of Pi either: the few types it uses are declared below.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The part of Pi's extension API this uses (@mariozechner/pi-coding-agent's ExtensionAPI). */
interface PiApi {
  on(event: string, handler: (event: PiEvent, ctx: PiContext) => unknown): void;
  sendMessage(
    message: { customType: string; content: string; display: boolean },
    options?: { deliverAs?: "steer" | "followUp" | "nextTurn"; triggerTurn?: boolean },
  ): void;
  sendUserMessage(content: string, options?: { deliverAs?: "steer" | "followUp" }): void;
}
type PiEvent = Record<string, unknown> & { input?: Record<string, unknown> };
interface PiContext {
  cwd: string;
  hasUI: boolean;
  ui: {
    notify(message: string, level?: "info" | "warning" | "error"): void;
    confirm(title: string, message: string): Promise<boolean>;
  };
  sessionManager: { getSessionId(): string };
}

/** hookyard's answer (adapters/pi/protocol/output.ts in hookyard says each field). */
interface Answer {
  block?: boolean;
  reason?: string;
  ask?: string;
  input?: Record<string, unknown>;
  content?: Array<Record<string, unknown>>;
  isError?: boolean;
  action?: "handled" | "transform";
  text?: string;
  inject?: string;
  continue?: string;
  notice?: string;
}

/** Why hookyard gave no answer: the extension refuses where Pi is about to act. */
class NoAnswer extends Error {}

const here = dirname(fileURLToPath(import.meta.url));
const defaultTimeoutMs = 30_000;

/** The command that runs hookyard: `command.json` beside this file (install-into writes it), else `hookyard` on PATH. */
function hookyardCommand(): string[] {
  try {
    const data = JSON.parse(readFileSync(join(here, "command.json"), "utf8")) as { command?: unknown };
    if (
      Array.isArray(data.command) &&
      data.command.length > 0 &&
      data.command.every((w) => typeof w === "string")
    ) {
      return data.command as string[];
    }
  } catch {}
  return ["hookyard"];
}

function timeoutMs(): number {
  const value = Number(process.env.HOOKYARD_PI_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : defaultTimeoutMs;
}

/** One `hookyard exec --profile pi <event>`: its answer, or NoAnswer saying why there is none. */
function ask(
  event: string,
  payload: Record<string, unknown>,
  cwd: string,
): Promise<{ answer: Answer; stderr: string }> {
  const [program, ...args] = hookyardCommand() as [string, ...string[]];
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      reject(new NoAnswer(why));
    };
    const child = spawn(program, [...args, "exec", "--profile", "pi", event], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(`it did not answer within ${timeoutMs()} ms`);
    }, timeoutMs());
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(`${program} could not be started: ${error.message}`);
    });
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (settled) return;
      const stdout = Buffer.concat(out).toString("utf8").trim();
      const stderr = Buffer.concat(err).toString("utf8").trim();
      // 0 is an answer, 2 a refusal hookyard wrote itself; anything else is a failure.
      if (code !== 0 && code !== 2) {
        const last = stderr.split("\n").slice(-3).join(" ").slice(0, 500);
        return fail(`it ended with ${signal ?? `exit code ${code}`}${last ? `: ${last}` : ""}`);
      }
      let answer: unknown = {};
      try {
        if (stdout) answer = JSON.parse(stdout);
      } catch {
        return fail(`its answer is not JSON: ${stdout.slice(0, 200)}`);
      }
      if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
        return fail(`its answer is not a JSON object: ${stdout.slice(0, 200)}`);
      }
      if (code === 2 && !(answer as Answer).block && (answer as Answer).action !== "handled") {
        return fail(`it refused (exit code 2) without saying why in its answer: ${stderr.slice(0, 300)}`);
      }
      settled = true;
      resolve({ answer: answer as Answer, stderr });
    });
    child.stdin.end(`${JSON.stringify({ ...payload, hook_event_name: event })}\n`);
  });
}

function tell(ctx: PiContext, message: string, level: "info" | "warning" | "error" = "info"): void {
  if (ctx.hasUI) ctx.ui.notify(message, level);
  else process.stderr.write(`${message}\n`);
}

function sessionId(ctx: PiContext): string {
  try {
    return ctx.sessionManager.getSessionId() || "pi-session";
  } catch {
    return "pi-session";
  }
}

/**
 * A run's messages with their text parts alone: what a stop check reads, without the images and
 * tool-call arguments that could take a long session's input past hookyard's limit (8 MB).
 */
function textOnly(
  messages: unknown,
): Array<{ role: unknown; content: Array<{ type: "text"; text: string }> }> {
  if (!Array.isArray(messages)) return [];
  return messages.map((message: { role?: unknown; content?: unknown }) => ({
    role: message?.role,
    content:
      typeof message?.content === "string"
        ? [{ type: "text" as const, text: message.content }]
        : Array.isArray(message?.content)
          ? message.content.filter(
              (part: { type?: unknown; text?: unknown }) =>
                part?.type === "text" && typeof part.text === "string",
            )
          : [],
  }));
}

const refusedBecause = (what: string, why: string) =>
  `hookyard could not answer, so this ${what} is refused: ${why}`;

export default function hookyard(pi: PiApi): void {
  /** Text for the model from a session start or a prompt, sent with the prompt (before_agent_start). */
  const pending: string[] = [];
  /** The run now going was started by a continue hookyard asked for. */
  let continued = false;

  /** Asks hookyard; a notice and its warnings are shown; NoAnswer propagates. */
  async function route(event: string, fields: Record<string, unknown>, ctx: PiContext): Promise<Answer> {
    const { answer, stderr } = await ask(
      event,
      { session_id: sessionId(ctx), cwd: ctx.cwd, ...fields },
      ctx.cwd,
    );
    if (typeof answer.notice === "string") tell(ctx, answer.notice);
    if (stderr && !answer.notice) tell(ctx, stderr, "warning");
    return answer;
  }

  /** Where Pi goes on whatever is answered: a failure is shown, and nothing is refused. */
  async function observe(event: string, fields: Record<string, unknown>, ctx: PiContext): Promise<Answer> {
    try {
      return await route(event, fields, ctx);
    } catch (error) {
      tell(ctx, `hookyard could not answer ${event}: ${(error as Error).message}`, "warning");
      return {};
    }
  }

  pi.on("session_start", async (event, ctx) => {
    const answer = await observe("session_start", { reason: event.reason }, ctx);
    if (typeof answer.inject === "string") pending.push(answer.inject);
  });

  pi.on("input", async (event, ctx) => {
    let answer: Answer;
    try {
      answer = await route("input", { text: event.text, source: event.source }, ctx);
    } catch (error) {
      tell(ctx, refusedBecause("prompt", (error as Error).message), "error");
      return { action: "handled" };
    }
    if (answer.action === "handled") {
      tell(ctx, answer.reason ?? "hookyard refused this prompt", "error");
      return { action: "handled" };
    }
    if (typeof answer.inject === "string") pending.push(answer.inject);
    if (answer.action === "transform" && typeof answer.text === "string") {
      return { action: "transform", text: answer.text };
    }
    return undefined;
  });

  pi.on("before_agent_start", () => {
    if (pending.length === 0) return undefined;
    return { message: { customType: "hookyard", content: pending.splice(0).join("\n\n"), display: false } };
  });

  pi.on("tool_call", async (event, ctx) => {
    let answer: Answer;
    try {
      answer = await route(
        "tool_call",
        { toolName: event.toolName, toolCallId: event.toolCallId, input: event.input },
        ctx,
      );
    } catch (error) {
      return { block: true, reason: refusedBecause("tool call", (error as Error).message) };
    }
    if (answer.block) return { block: true, reason: answer.reason ?? "refused by hookyard" };
    if (typeof answer.ask === "string") {
      const allowed = ctx.hasUI && (await ctx.ui.confirm("hookyard asks", answer.ask));
      if (!allowed) {
        const why = ctx.hasUI ? "not approved" : "no one could be asked (Pi runs without a UI)";
        return { block: true, reason: `${answer.ask} (${why})` };
      }
    }
    const input = event.input;
    if (answer.input && typeof answer.input === "object" && input) {
      // Pi runs the tool with event.input itself: its fields are replaced in place.
      for (const key of Object.keys(input)) delete input[key];
      Object.assign(input, answer.input);
    }
    if (typeof answer.inject === "string") {
      pi.sendMessage(
        { customType: "hookyard", content: answer.inject, display: false },
        { deliverAs: "steer" },
      );
    }
    return undefined;
  });

  pi.on("tool_result", async (event, ctx) => {
    const answer = await observe(
      "tool_result",
      {
        toolName: event.toolName,
        toolCallId: event.toolCallId,
        input: event.input,
        content: event.content,
        isError: event.isError,
      },
      ctx,
    );
    if (!Array.isArray(answer.content)) return undefined;
    return typeof answer.isError === "boolean"
      ? { content: answer.content, isError: answer.isError }
      : { content: answer.content };
  });

  pi.on("agent_end", async (event, ctx) => {
    const answer = await observe("agent_end", { messages: textOnly(event.messages), continued }, ctx);
    continued = false;
    if (typeof answer.continue === "string") {
      continued = true;
      try {
        pi.sendUserMessage(answer.continue, { deliverAs: "followUp" });
      } catch (error) {
        // `pi -p` ends when its run does, without waiting for agent_end's extensions: by now the
        // session may be gone, and the continue with it.
        continued = false;
        process.stderr.write(`hookyard: the continue could not be sent (${(error as Error).message})\n`);
      }
    }
  });

  pi.on("session_shutdown", async (event, ctx) => {
    await observe("session_shutdown", { reason: event.reason }, ctx);
  });
}
