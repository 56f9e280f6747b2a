import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstallResult, installAgent } from "./install-agent.js";

/**
 * Claude Code, the real binary. `@anthropic-ai/claude-code` is a JS shim whose postinstall picks
 * the platform package; npm --ignore-scripts does not run it, so the platform package is installed
 * and its binary run directly. Pinned: a new version is a deliberate change here.
 */
export const claudeCodePackage = { name: "@anthropic-ai/claude-code-linux-x64", version: "2.1.334" };

export async function installClaudeCode(): Promise<InstallResult & { binary?: string }> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { ok: false, reason: `no pinned Claude Code binary for ${process.platform}-${process.arch}` };
  }
  const result = await installAgent(claudeCodePackage);
  return result.ok ? { ...result, binary: join(result.agent.packageDir, "claude") } : result;
}

export interface ClaudeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed (--output-format json), when it is JSON. */
  json: Record<string, unknown> | undefined;
  ms: number;
}

/**
 * One `claude -p <prompt>` in `cwd`, against the fake model at `modelUrl`, with a fresh HOME (no
 * user settings, no login, nothing from an earlier run), telemetry, updates and error reports
 * off. `IS_SANDBOX=1`: as root it refuses --dangerously-skip-permissions otherwise.
 */
export async function runClaude(options: {
  binary: string;
  cwd: string;
  prompt: string;
  modelUrl: string;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  timeoutMs?: number;
}): Promise<ClaudeRun> {
  const home = await mkdtemp(join(tmpdir(), "hookyard-agent-home-"));
  const started = Date.now();
  try {
    return await new Promise<ClaudeRun>((resolve, reject) => {
      const child = spawn(
        options.binary,
        [
          "-p",
          options.prompt,
          "--output-format",
          "json",
          "--dangerously-skip-permissions",
          "--model",
          "claude-sonnet-4-5",
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
            ANTHROPIC_BASE_URL: options.modelUrl,
            ANTHROPIC_API_KEY: "dummy",
            IS_SANDBOX: "1",
            DISABLE_TELEMETRY: "1",
            DISABLE_AUTOUPDATER: "1",
            DISABLE_ERROR_REPORTING: "1",
            DISABLE_BUG_COMMAND: "1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
            CLAUDE_CODE_ENABLE_TELEMETRY: "0",
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
