import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstallResult, installAgent } from "./install-agent.js";

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

/**
 * One `pi -p <prompt>` in `cwd`, against the fake Anthropic Messages server at `modelUrl`, with a
 * fresh HOME whose `~/.pi/agent/models.json` names that server as an `anthropic-messages`
 * provider; `--no-session` (nothing kept), PI_OFFLINE (no startup network calls). Pi loads the
 * project's `.pi/extensions/` by itself.
 */
export async function runPi(options: {
  script: string;
  cwd: string;
  prompt: string;
  modelUrl: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<PiRun> {
  const home = await mkdtemp(join(tmpdir(), "hookyard-agent-home-"));
  await mkdir(join(home, ".pi", "agent"), { recursive: true });
  await writeFile(
    join(home, ".pi", "agent", "models.json"),
    JSON.stringify({
      providers: {
        [provider]: {
          baseUrl: options.modelUrl,
          api: "anthropic-messages",
          apiKey: "dummy",
          models: [{ id: model, reasoning: false }],
        },
      },
    }),
  );
  const started = Date.now();
  try {
    return await new Promise<PiRun>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [options.script, "-p", "--provider", provider, "--model", model, "--no-session", options.prompt],
        {
          cwd: options.cwd,
          stdio: ["ignore", "pipe", "pipe"],
          env: {
            PATH: process.env.PATH,
            HOME: home,
            XDG_CONFIG_HOME: join(home, ".config"),
            TMPDIR: process.env.TMPDIR,
            PI_OFFLINE: "1",
            NO_COLOR: "1",
            ...options.env,
          },
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
      });
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
