import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstallResult, installAgent } from "../../../bench/agents/install-agent.js";

/**
 * Pi, the real package: plain JavaScript (`dist/cli.js`), run on the test's own node. Pinned: a
 * new version is a deliberate change here.
 */
export const piPackage = { name: "@mariozechner/pi-coding-agent", version: "0.73.1" };

export async function installPi(): Promise<InstallResult & { script?: string }> {
  const result = await installAgent(piPackage);
  return result.ok ? { ...result, script: join(result.agent.packageDir, "dist", "cli.js") } : result;
}

export interface PiRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The fake provider's name and model in the run's models.json. */
const provider = "hookyard-fake";
const model = "claude-fake";

/** A fresh HOME whose `~/.pi/agent/models.json` names the fake server as an `anthropic-messages` provider. */
async function piHome(modelUrl: string): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "hookyard-agent-home-"));
  await mkdir(join(home, ".pi", "agent"), { recursive: true });
  await writeFile(
    join(home, ".pi", "agent", "models.json"),
    JSON.stringify({
      providers: {
        [provider]: {
          baseUrl: modelUrl,
          api: "anthropic-messages",
          apiKey: "dummy",
          models: [{ id: model, reasoning: false }],
        },
      },
    }),
  );
  return home;
}

function piEnv(home: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: process.env.TMPDIR,
    PI_OFFLINE: "1",
    NO_COLOR: "1",
    ...env,
  };
}

const modelArgs = ["--provider", provider, "--model", model, "--no-session"];

export interface PiOptions {
  script: string;
  cwd: string;
  prompt: string;
  modelUrl: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * One `pi -p <prompt>` in `cwd`, against the fake Anthropic Messages server at `modelUrl`, with a
 * fresh HOME (piHome); `--no-session` (nothing kept), PI_OFFLINE (no startup network calls). Pi
 * loads the project's `.pi/extensions/` by itself.
 */
export function runPi(options: PiOptions): Promise<PiRun> {
  return runPiProcess(options, ["-p", ...modelArgs, options.prompt]);
}

/**
 * The same prompt in a session that stays open (`pi --mode rpc`, as an editor or the interactive
 * UI keeps one): the prompt sent as an RPC command, stdin closed once `done()` holds (or at the
 * deadline), which ends Pi. `pi -p` ends when its prompt's run does, without waiting for
 * extensions still handling agent_end, so what they queue then (a continue) needs a session.
 */
export function runPiSession(options: PiOptions & { done: () => boolean }): Promise<PiRun> {
  return runPiProcess(options, ["--mode", "rpc", ...modelArgs], async (stdin) => {
    stdin.write(`${JSON.stringify({ id: "1", type: "prompt", message: options.prompt })}\n`);
    const deadline = Date.now() + (options.timeoutMs ?? 90_000) / 2;
    while (!options.done() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
    // Let the last run settle (its agent_end hooks) before the session ends.
    await new Promise((done) => setTimeout(done, 1_500));
    stdin.end();
  });
}

async function runPiProcess(
  options: PiOptions,
  args: string[],
  drive?: (stdin: NodeJS.WritableStream) => Promise<void>,
): Promise<PiRun> {
  const home = await piHome(options.modelUrl);
  const started = Date.now();
  try {
    return await new Promise<PiRun>((resolve, reject) => {
      const child = spawn(process.execPath, [options.script, ...args], {
        cwd: options.cwd,
        stdio: [drive ? "pipe" : "ignore", "pipe", "pipe"],
        env: piEnv(home, options.env),
      });
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
      });
      if (drive && child.stdin) drive(child.stdin).catch(reject);
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
