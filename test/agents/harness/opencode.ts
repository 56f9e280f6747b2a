import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstallResult, installAgent } from "../../../bench/agents/install-agent.js";
import { startEgressProxy } from "./egress-proxy.js";

/**
 * OpenCode, the real binary: `opencode-ai` is a shim whose optional dependencies are one package
 * per platform, each holding a compiled (Bun) binary; npm does not run the shim's postinstall, so
 * the test installs the linux x64 package and runs its binary itself. Pinned: a new version is a
 * deliberate change here.
 */
export const opencodePackage = { name: "opencode-linux-x64", version: "1.18.33" };

export async function installOpencode(): Promise<InstallResult & { binary?: string }> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      ok: false,
      reason: `the pinned binary is linux x64's, and this is ${process.platform} ${process.arch}`,
    };
  }
  const result = await installAgent(opencodePackage);
  return result.ok ? { ...result, binary: join(result.agent.packageDir, "bin", "opencode") } : result;
}

export interface OpencodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Where it reached for beyond loopback and the npm registry (refused by the egress proxy). */
  refused: string[];
  /** What the egress proxy let through (the npm registry): proof that it was in the path at all. */
  allowed: string[];
}

/**
 * Switches that keep OpenCode off the network and quiet: no models.dev list (it uses the config's
 * models alone), no update check, no default plugins (fetched from npm), no LSP downloads, no
 * sharing, and nothing read from Claude Code's files.
 */
const offline = {
  OPENCODE_DISABLE_MODELS_FETCH: "1",
  OPENCODE_DISABLE_AUTOUPDATE: "1",
  OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
  OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
  OPENCODE_DISABLE_SHARE: "1",
  OPENCODE_DISABLE_CLAUDE_CODE: "1",
};

/**
 * One `opencode run <prompt>` in `cwd`, against the fake Anthropic API at `modelUrl`: a fresh
 * HOME and XDG folders, whose global config (`$XDG_CONFIG_HOME/opencode/opencode.json`) declares
 * one provider on @ai-sdk/anthropic (bundled in the binary) with its baseURL at the fake and one
 * model, so the project holds only what install-into wrote. Its traffic beyond loopback goes
 * through an egress proxy that lets the npm registry through (OpenCode installs @opencode-ai/plugin
 * into each config folder it reads, `.opencode/` too, when it starts) and refuses the rest.
 */
export async function runOpencode(options: {
  binary: string;
  cwd: string;
  prompt: string;
  modelUrl: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<OpencodeRun> {
  const home = await mkdtemp(join(tmpdir(), "hookyard-agent-home-"));
  const config = join(home, ".config");
  await mkdir(join(config, "opencode"), { recursive: true });
  await writeFile(
    join(config, "opencode", "opencode.json"),
    JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      model: "fake/claude-fake",
      autoupdate: false,
      share: "disabled",
      provider: {
        fake: {
          npm: "@ai-sdk/anthropic",
          name: "Fake model",
          options: { baseURL: `${options.modelUrl}/v1`, apiKey: "dummy" },
          models: { "claude-fake": { name: "Fake", tool_call: true } },
        },
      },
    }),
  );
  const proxy = await startEgressProxy(["registry.npmjs.org"]);
  const started = Date.now();
  try {
    return await new Promise<OpencodeRun>((resolve, reject) => {
      const child = spawn(options.binary, ["run", options.prompt], {
        cwd: options.cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          PATH: process.env.PATH,
          HOME: home,
          XDG_CONFIG_HOME: config,
          XDG_DATA_HOME: join(home, ".local", "share"),
          XDG_CACHE_HOME: join(home, ".cache"),
          XDG_STATE_HOME: join(home, ".local", "state"),
          TMPDIR: process.env.TMPDIR,
          NO_COLOR: "1",
          ...offline,
          ...proxy.env,
          ...options.env,
        },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({
          code,
          signal,
          stdout,
          stderr,
          ms: Date.now() - started,
          refused: [...proxy.refused],
          allowed: [...proxy.allowed],
        });
      });
    });
  } finally {
    await proxy.close();
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
