/**
 * hookyard's OpenCode plugin: routes OpenCode's tool calls, prompts and session events to the
 * workspace's hookyard chain (`hookyard exec --profile opencode <event>`, event JSON on stdin, the
 * answer as JSON on stdout: adapters/opencode/protocol/output.ts), and applies the answer: a block
 * is thrown (the tool does not run; the prompt reaches no model), rewritten arguments and results
 * replace OpenCode's, injected text goes into the next model request.
 *
 * Fail-closed: at tool.execute.before and chat.message, a hookyard that cannot answer (not
 * installed, crashed, timed out, an answer that is not its JSON) refuses the call or the prompt.
 * Self-contained on purpose (no import but node's): `hookyard install-into opencode` copies this
 * file into `.opencode/plugins/`, and a plugin that failed to import would be no guard at all.
 */
import { spawn } from "node:child_process";

/** The command that runs hookyard; `hookyard install-into opencode` writes its own node and bin here. */
const installedCommand: readonly string[] = ["hookyard"];

/** How long one event may take to answer: a first one loads the workspace's hooks itself. */
const answerTimeoutMs = 30_000;
/** The most of an answer read: hookyard caps its own text far below this. */
const maxAnswerBytes = 4 * 1024 * 1024;

/** What the plugin needs of OpenCode's plugin API (@opencode-ai/plugin 1.18), typed here to stay import-free. */
interface PluginInput {
  directory: string;
}
interface TextPart {
  id?: string;
  sessionID?: string;
  messageID?: string;
  type: string;
  text?: string;
  synthetic?: boolean;
}
interface Hooks {
  event?: (input: { event: { type: string; properties?: Record<string, unknown> } }) => Promise<void>;
  "chat.message"?: (
    input: { sessionID: string; agent?: string; model?: unknown },
    output: { message: { id: string }; parts: TextPart[] },
  ) => Promise<void>;
  "tool.execute.before"?: (
    input: { tool: string; sessionID: string; callID: string },
    output: { args: Record<string, unknown> },
  ) => Promise<void>;
  "tool.execute.after"?: (
    input: { tool: string; sessionID: string; callID: string; args: unknown },
    output: { title: string; output: string; metadata: unknown },
  ) => Promise<void>;
  dispose?: () => Promise<void>;
}

/** hookyard's answer (adapters/opencode/protocol/output.ts). */
interface Answer {
  block?: string;
  args?: Record<string, unknown>;
  output?: string;
  inject?: string;
  message?: string;
}

/** hookyard gave no answer this plugin can use; `why` says what happened instead. */
class NoAnswer extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One event through `hookyard exec`: its answer, or NoAnswer. Exit 0 answers, exit 2 refuses (with a block). */
function exec(command: readonly string[], cwd: string, event: string, payload: object): Promise<Answer> {
  const [file, ...args] = command;
  if (file === undefined) return Promise.reject(new NoAnswer("no hookyard command is configured"));
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args, "exec", "--profile", "opencode", event], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let size = 0;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new NoAnswer(`it did not answer within ${answerTimeoutMs / 1000} s`));
    }, answerTimeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxAnswerBytes) stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new NoAnswer(`it could not be started (${file}: ${error.message})`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const said = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 1000);
      let body: unknown;
      try {
        body = JSON.parse(stdout);
      } catch {}
      if ((code === 0 || code === 2) && isObject(body)) {
        if (code === 2 && typeof body.block !== "string") {
          reject(new NoAnswer(`it exited 2 without a reason${said ? `: ${said}` : ""}`));
        } else resolve(body as Answer);
        return;
      }
      const how = signal ? `was killed by ${signal}` : `exited ${code}`;
      reject(new NoAnswer(`it ${how} without an answer${said ? `: ${said}` : ""}`));
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ hook_event_name: event, cwd, ...payload }));
  });
}

export const HookyardPlugin = async (
  input: PluginInput,
  options?: Record<string, unknown>,
): Promise<Hooks> => {
  const configured = options?.command;
  const command =
    Array.isArray(configured) && configured.every((word) => typeof word === "string")
      ? (configured as string[])
      : installedCommand;
  const cwd = input.directory;
  /** Per session, injected text not yet in a model request. */
  const pending = new Map<string, string[]>();
  /** Per session, its session.created answer: a prompt waits for it, so its inject is in the first request. */
  const starts = new Map<string, Promise<void>>();

  const queue = (session: string, text: string | undefined) => {
    if (!text) return;
    pending.set(session, [...(pending.get(session) ?? []), text]);
  };
  const drain = (session: string): string[] => {
    const texts = pending.get(session) ?? [];
    pending.delete(session);
    return texts;
  };
  const say = (answer: Answer) => {
    if (answer.message) console.error(answer.message);
  };

  /**
   * Where OpenCode is about to act: a block, or no usable answer, throws, so the act does not
   * happen. The reason is printed too: a refused prompt ends `opencode run` with "Unexpected server
   * error" and the thrown message only in its log.
   */
  const refuse = (reason: string): never => {
    console.error(`hookyard: ${reason}`);
    throw new Error(reason);
  };
  const guard = async (event: string, what: string, payload: object): Promise<Answer> => {
    let answer: Answer;
    try {
      answer = await exec(command, cwd, event, payload);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return refuse(`hookyard could not answer, so this ${what} is refused: ${why}`);
    }
    say(answer);
    if (typeof answer.block === "string") refuse(answer.block);
    return answer;
  };
  /** Elsewhere: no answer is a warning, and OpenCode goes on. */
  const observe = async (event: string, payload: object): Promise<Answer> => {
    try {
      const answer = await exec(command, cwd, event, payload);
      say(answer);
      return answer;
    } catch (error) {
      console.error(`hookyard: warning: no answer at ${event}: ${(error as Error).message}`);
      return {};
    }
  };

  return {
    async event({ event }) {
      const session = event.properties?.sessionID;
      if (typeof session !== "string") return;
      if (event.type === "session.created" && !starts.has(session)) {
        const started = observe("session.created", { session_id: session }).then((a) =>
          queue(session, a.inject),
        );
        starts.set(session, started);
        await started;
      } else if (event.type === "session.idle") {
        queue(session, (await observe("session.idle", { session_id: session })).inject);
      }
    },
    async "chat.message"(hook, output) {
      await starts.get(hook.sessionID);
      const prompt = output.parts
        .filter((part) => part.type === "text" && !part.synthetic)
        .map((part) => part.text ?? "")
        .join("\n");
      const answer = await guard("chat.message", "prompt", {
        session_id: hook.sessionID,
        prompt,
        ...(hook.agent ? { agent: hook.agent } : {}),
        ...(hook.model ? { model: hook.model } : {}),
      });
      queue(hook.sessionID, answer.inject);
      const texts = drain(hook.sessionID);
      if (texts.length === 0) return;
      output.parts.push({
        id: `prt_hookyard${Date.now().toString(36)}`,
        sessionID: hook.sessionID,
        messageID: output.message.id,
        type: "text",
        text: texts.join("\n\n"),
        synthetic: true,
      });
    },
    async "tool.execute.before"(hook, output) {
      const answer = await guard("tool.execute.before", "tool call", {
        session_id: hook.sessionID,
        tool: hook.tool,
        call_id: hook.callID,
        args: output.args,
      });
      if (isObject(answer.args)) {
        // In place: OpenCode runs the tool with this object.
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, answer.args);
      }
      queue(hook.sessionID, answer.inject);
    },
    async "tool.execute.after"(hook, output) {
      const answer = await observe("tool.execute.after", {
        session_id: hook.sessionID,
        tool: hook.tool,
        call_id: hook.callID,
        args: hook.args,
        output: output.output,
        title: output.title,
        metadata: output.metadata,
      });
      if (typeof answer.output === "string") output.output = answer.output;
      queue(hook.sessionID, answer.inject);
      const texts = drain(hook.sessionID);
      if (texts.length > 0) output.output = [output.output, ...texts].join("\n\n");
    },
    async dispose() {
      for (const session of starts.keys()) await observe("dispose", { session_id: session, reason: "exit" });
    },
  };
};
