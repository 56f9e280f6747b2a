import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstallResult, installAgent } from "../../../bench/agents/install-agent.js";

/**
 * Gemini CLI, the real package: plain JavaScript (`bundle/gemini.js`), so it runs on the test's
 * own node, on every platform. Pinned: a new version is a deliberate change here.
 */
export const geminiCliPackage = { name: "@google/gemini-cli", version: "0.61.0" };

export async function installGeminiCli(): Promise<InstallResult & { script?: string }> {
  const result = await installAgent(geminiCliPackage);
  return result.ok ? { ...result, script: join(result.agent.packageDir, "bundle", "gemini.js") } : result;
}

export interface GeminiRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed (--output-format json), when it is JSON. */
  json: Record<string, unknown> | undefined;
  ms: number;
}

/**
 * One `gemini -p <prompt> --yolo -o json` in `cwd`, against the fake model at `modelUrl`, with a
 * fresh HOME whose user settings select API-key auth (`security.auth.selectedType`, so nothing
 * asks), turn usage statistics and update checks off; `GEMINI_CLI_TRUST_WORKSPACE=true` trusts the
 * folder (project hooks run only in a trusted folder), `GEMINI_CLI_NO_RELAUNCH` keeps it one process.
 */
export async function runGemini(options: {
  script: string;
  cwd: string;
  prompt: string;
  modelUrl: string;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  timeoutMs?: number;
}): Promise<GeminiRun> {
  const home = await mkdtemp(join(tmpdir(), "hookyard-agent-home-"));
  await mkdir(join(home, ".gemini"), { recursive: true });
  await writeFile(
    join(home, ".gemini", "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      telemetry: { enabled: false },
    }),
  );
  const started = Date.now();
  try {
    return await new Promise<GeminiRun>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          options.script,
          "-p",
          options.prompt,
          "--yolo",
          "--output-format",
          "json",
          "--model",
          "gemini-2.5-flash",
          ...(options.args ?? []),
        ],
        {
          cwd: options.cwd,
          stdio: ["ignore", "pipe", "pipe"],
          env: {
            PATH: process.env.PATH,
            HOME: home,
            XDG_CONFIG_HOME: join(home, ".config"),
            TMPDIR: process.env.TMPDIR,
            GEMINI_API_KEY: "dummy",
            GOOGLE_GEMINI_BASE_URL: options.modelUrl,
            GEMINI_CLI_TRUST_WORKSPACE: "true",
            GEMINI_CLI_NO_RELAUNCH: "true",
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
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(stdout) as Record<string, unknown>;
        } catch {}
        resolve({ code, signal, stdout, stderr, json, ms: Date.now() - started });
      });
    });
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
