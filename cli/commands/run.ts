import { cp, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { errorText } from "../../core/errors.js";
import type { AskPolicy } from "../../runner/agent/loop.js";
import type { Model } from "../../runner/agent/model.js";
import type { CliContext, Command } from "../command.js";
import { renderError } from "../error-message.js";
import { CliError, exitCodes } from "../errors.js";
import { loadWorkspaceHooks } from "../load-hooks.js";
import { packageRoot } from "../package-root.js";
import { transcriptWriter } from "../ui/transcript.js";

export default {
  name: "run",
  summary: "Run the agent loop with the workspace's hooks (no arguments: the bundled example)",
  args: [{ name: "[prompt]", description: "what to ask the agent (a scripted model may carry its own)" }],
  options: [
    {
      flags: "--model <spec>",
      description: "scripted:<file.json> replays a script; openai:<model> calls a chat-completions API",
    },
    {
      flags: "--base-url <url>",
      description: "OpenAI-compatible endpoint (default $OPENAI_BASE_URL or api.openai.com/v1)",
    },
    { flags: "--api-key <key>", description: "API key (default $OPENAI_API_KEY)" },
    { flags: "--max-steps <n>", description: "model calls per turn before the turn ends", default: "20" },
    {
      flags: "--ask <policy>",
      description: "what to do when a hook asks to confirm a tool call (default: prompt on a TTY, else deny)",
      choices: ["prompt", "allow", "deny"],
    },
    { flags: "--json", description: "print events as JSON lines instead of a transcript" },
    {
      flags: "--replay <id>",
      description: "print a recorded run again from its record: no hook, model or tool runs",
    },
    {
      flags: "--resume <id>",
      description: "start a run that did not finish (a crash) again, as a new run with its prompt and model",
    },
  ],
  help: [
    "With no prompt and no --model, runs the bundled example in a temporary copy of its workspace:",
    "a scripted agent whose `rm -rf ~` is blocked by a workspace hook and whose view of a file",
    "has an AWS key redacted. The copy is removed afterwards.",
    "",
    "Every run is recorded in .hookyard/runs/<id>/ (`hookyard runs list` shows them). --replay <id>",
    "prints a finished run's transcript from its record and runs nothing; for a run that did not",
    "finish it prints what was recorded and says where it stopped. --resume <id> starts such a run's",
    "prompt again as a new run: agent_before and every hook fire again.",
  ].join("\n"),
  async run(context, args, options) {
    const maxSteps = Number(options.maxSteps);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new CliError(
        "CLI_ERR_USAGE",
        `--max-steps must be a positive whole number, not ${String(options.maxSteps)}`,
        exitCodes.usage,
      );
    }
    if (typeof options.replay === "string") {
      if (args[0] !== undefined || options.model !== undefined || options.resume !== undefined) {
        throw new CliError(
          "CLI_ERR_USAGE",
          "--replay prints a recorded run; it takes no prompt, --model or --resume",
          exitCodes.usage,
        );
      }
      return replay(context, options.replay, options);
    }
    let prompt = args[0];
    let spec = options.model as string | undefined;
    let steps = maxSteps;
    const meta: Record<string, unknown> = {};
    let modelCwd = context.cwd;
    if (typeof options.resume === "string") {
      const { readWorkspaceRun, runMeta } = await import("../runs/run-records.js");
      const record = await readWorkspaceRun(context.cwd, options.resume);
      if (record.finished) {
        throw new CliError(
          "CLI_ERR_USAGE",
          `run ${options.resume} finished (${record.finished.reason}); \`hookyard run --replay ${options.resume}\` shows it again`,
          exitCodes.usage,
        );
      }
      const was = runMeta(record);
      prompt ??= record.header.prompt;
      spec ??= was.modelSpec;
      if (was.maxSteps) steps = was.maxSteps;
      if (was.invokedIn && options.model === undefined) modelCwd = was.invokedIn;
      options.baseUrl ??= was.baseUrl;
      options.ask ??= was.ask;
      meta.resumedFrom = options.resume;
      if (spec === undefined) {
        throw new CliError(
          "CLI_ERR_USAGE",
          `run ${options.resume} has no model recorded (the bundled example?); give --model`,
          exitCodes.usage,
        );
      }
    }
    if (prompt === undefined && spec === undefined) return runExample(context, options, maxSteps);
    if (spec === undefined) {
      throw new CliError(
        "CLI_ERR_USAGE",
        "a prompt needs --model scripted:<file> or --model openai:<model>",
        exitCodes.usage,
      );
    }
    const { modelFromSpec } = await import("../options/model-spec.js");
    const { ScriptedModel } = await import("../../runner/agent/models/scripted.js");
    const model = await modelFromSpec({
      model: spec,
      cwd: modelCwd,
      env: process.env,
      ...(typeof options.baseUrl === "string" ? { baseUrl: options.baseUrl } : {}),
      ...(typeof options.apiKey === "string" ? { apiKey: options.apiKey } : {}),
    });
    prompt ??= model instanceof ScriptedModel ? model.script.prompt : undefined;
    if (prompt === undefined)
      throw new CliError("CLI_ERR_USAGE", "no prompt given, and the script has none", exitCodes.usage);
    Object.assign(meta, {
      modelSpec: spec,
      ...(typeof options.baseUrl === "string" ? { baseUrl: options.baseUrl } : {}),
      maxSteps: steps,
      ...(typeof options.ask === "string" ? { ask: options.ask } : {}),
      invokedIn: modelCwd,
    });
    if (meta.resumedFrom !== undefined && !options.json) {
      context.stdout.write(`Starting run ${String(meta.resumedFrom)} again as a new run.\n\n`);
    }
    return session(context, options, { model, prompt, cwd: context.cwd, maxSteps: steps, meta });
  },
} satisfies Command;

async function runExample(
  context: CliContext,
  options: Record<string, unknown>,
  maxSteps: number,
): Promise<number> {
  const { ScriptedModel } = await import("../../runner/agent/models/scripted.js");
  const { tmpdir } = await import("node:os");
  const example = join(packageRoot(), "cli", "examples", "quickstart");
  const workspace = await mkdtemp(join(tmpdir(), "hookyard-example-"));
  try {
    await cp(example, workspace, { recursive: true }).catch((error: unknown) => {
      throw new CliError(
        "CLI_ERR_EXAMPLE_MISSING",
        `cannot copy ${example}: ${(error as Error).message}`,
        exitCodes.error,
        {
          cause: error,
        },
      );
    });
    const model = await ScriptedModel.fromFile(join(workspace, "script.json"));
    if (!options.json) {
      context.stdout.write(`Running the bundled example in a temporary workspace (${workspace}).\n\n`);
    }
    return await session(context, options, {
      model,
      prompt: model.script.prompt ?? "",
      cwd: workspace,
      maxSteps,
    });
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

async function session(
  context: CliContext,
  options: Record<string, unknown>,
  run: { model: Model; prompt: string; cwd: string; maxSteps: number; meta?: Record<string, unknown> },
): Promise<number> {
  const { runAgent } = await import("../../runner/agent/loop.js");
  const { runsFolder } = await import("../../runner/runs/record.js");
  const { ScriptedModel } = await import("../../runner/agent/models/scripted.js");
  const hooks = await loadWorkspaceHooks({ cwd: run.cwd });
  const write = (text: string) => context.stdout.write(text);
  // A trusted hook that starts a promise and forgets it (no await, no catch) must not end the run:
  // Node would exit on the unhandled rejection. It is reported, and the run goes on.
  const unhandled = (reason: unknown) => {
    context.stderr.write(
      `hookyard: error: a promise nobody awaited was rejected (a hook missing an await?): ${errorText(reason)}\n`,
    );
    if (context.debug) context.stderr.write(`${stackOf(reason)}\n`);
  };
  process.on("unhandledRejection", unhandled);
  try {
    const result = await runAgent({
      hooks,
      model: run.model,
      prompt: run.prompt,
      cwd: hooks.root,
      maxSteps: run.maxSteps,
      record: { runsDir: runsFolder(hooks.root), meta: run.meta ?? {} },
      askPolicy: askPolicy(context, options.ask as string | undefined),
      onEvent: options.json
        ? (event) => write(`${JSON.stringify(event)}\n`)
        : transcriptWriter(write, context.color),
      ...(run.model instanceof ScriptedModel && run.model.script.systemPrompt
        ? { systemPrompt: run.model.script.systemPrompt }
        : {}),
    });
    if (result.error === undefined) {
      // The run went on (hooks that did not load blocked where they would have run), but it was not
      // the run the workspace describes: say so in the exit code, so a script or CI notices.
      const broken = hooks.problems.filter((problem) => !problem.setting);
      if (broken.length === 0) return exitCodes.ok;
      const names = broken.map((problem) => `"${problem.name}"`).join(", ");
      context.stderr.write(
        `hookyard: error: ${broken.length} hook(s) could not be loaded (${names}); \`hookyard list\` shows why and the fix\n`,
      );
      return exitCodes.error;
    }
    const rendered = renderError(result.error, context.debug);
    context.stderr.write(`${rendered.line}\n`);
    return rendered.exitCode;
  } finally {
    await hooks.close();
    process.off("unhandledRejection", unhandled);
  }
}

/** Prints a run from its record alone: nothing is loaded, so no hook, model or tool can run. */
async function replay(context: CliContext, id: string, options: Record<string, unknown>): Promise<number> {
  const { readWorkspaceRun, recordedEvents, unfinished } = await import("../runs/run-records.js");
  const record = await readWorkspaceRun(context.cwd, id);
  const write = (text: string) => context.stdout.write(text);
  const show = options.json
    ? (event: unknown) => write(`${JSON.stringify(event)}\n`)
    : transcriptWriter(write, context.color);
  for (const event of recordedEvents(record)) show(event);
  if (!record.finished) throw unfinished(record);
  return exitCodes.ok;
}

function askPolicy(context: CliContext, policy: string | undefined): AskPolicy {
  const chosen = policy ?? (context.stdin.isTTY && context.stdout.isTTY ? "prompt" : "deny");
  if (chosen === "allow") return async () => true;
  if (chosen === "deny") return async () => false;
  return async ({ tool, reasons }) => {
    const { createInterface } = await import("node:readline/promises");
    return new Promise<boolean>((resolve) => {
      const rl = createInterface({ input: context.stdin, output: context.stdout });
      const why = reasons.map((r) => `${r.hook}: ${r.text}`).join("; ");
      // End of input (a closed pipe, Ctrl-D) is a "no", not a hang or a crash.
      rl.once("close", () => resolve(false));
      rl.question(`Allow ${tool}? (${why}) [y/N] `).then(
        (answer) => {
          resolve(/^y(es)?$/i.test(answer.trim()));
          rl.close();
        },
        () => resolve(false),
      );
    });
  };
}

function stackOf(reason: unknown): string {
  try {
    if (reason instanceof Error && typeof reason.stack === "string") return reason.stack;
  } catch {
    // a Proxy that refuses instanceof
  }
  return "(no stack)";
}
