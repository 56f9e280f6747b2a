import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isCodexHookyardEntry } from "../../../adapters/codex/settings/hookyard-entries.js";
import { codexHookIdentities } from "../../../adapters/codex/settings/trust.js";
import { type InstallResult, installAgent } from "../../../bench/agents/install-agent.js";

/**
 * Codex, the real binary. `@openai/codex` is a JS shim whose platform binaries are its own
 * versions under other names (`@openai/codex@<version>-linux-x64`, a Rust binary built for musl):
 * that one is installed and its binary run directly. Pinned: a new version is a deliberate change.
 */
export const codexPackage = { name: "@openai/codex", version: "0.171.0-linux-x64" };

export async function installCodex(): Promise<InstallResult & { binary?: string }> {
  if (process.platform !== "linux" || process.arch !== "x64") {
    return { ok: false, reason: `no pinned Codex binary for ${process.platform}-${process.arch}` };
  }
  const result = await installAgent(codexPackage);
  if (!result.ok) return result;
  const binary = join(result.agent.packageDir, "vendor", "x86_64-unknown-linux-musl", "bin", "codex");
  return { ...result, binary };
}

export interface CodexRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * The trust records Codex's /hooks panel writes when the user trusts hookyard's entries in
 * `hooksFile` as they are now, as config.toml text: what a user does once, by hand.
 */
export async function trustRecords(hooksFile: string): Promise<string> {
  const data = JSON.parse(await readFile(hooksFile, "utf8")) as Record<string, unknown>;
  return codexHookIdentities(hooksFile, data, isCodexHookyardEntry)
    .map((id) => `[hooks.state.${JSON.stringify(id.key)}]\ntrusted_hash = ${JSON.stringify(id.hash)}\n`)
    .join("\n");
}

/**
 * The config.toml of a fresh CODEX_HOME: the fake model as a custom provider (Responses API),
 * the project trusted (Codex reads a project's .codex/ only then), and the trust records given.
 */
export function codexConfig(options: { modelUrl: string; cwd: string; trust?: string }): string {
  return [
    'model = "gpt-fake"',
    'model_provider = "fake"',
    "",
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = ${JSON.stringify(`${options.modelUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    "",
    `[projects.${JSON.stringify(options.cwd)}]`,
    'trust_level = "trusted"',
    "",
    options.trust ?? "",
  ].join("\n");
}

/**
 * One `codex exec <prompt>` in `cwd` (no approvals, no sandbox, no git check), against the fake
 * model at `modelUrl`, with a fresh CODEX_HOME (also HOME) holding only `codexConfig`. `trust`:
 * "recorded" trusts hookyard's entries in `<cwd>/.codex/hooks.json` as /hooks would; "none" leaves
 * them untrusted, as they are after install-into.
 */
export async function runCodex(options: {
  binary: string;
  cwd: string;
  prompt: string;
  modelUrl: string;
  trust?: "recorded" | "none";
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<CodexRun> {
  const home = await mkdtemp(join(tmpdir(), "hookyard-codex-home-"));
  const trust = options.trust === "none" ? "" : await trustRecords(join(options.cwd, ".codex", "hooks.json"));
  await writeFile(
    join(home, "config.toml"),
    codexConfig({ modelUrl: options.modelUrl, cwd: options.cwd, trust }),
  );
  const started = Date.now();
  try {
    return await new Promise<CodexRun>((resolve, reject) => {
      const child = spawn(
        options.binary,
        [
          "exec",
          "--skip-git-repo-check",
          "--dangerously-bypass-approvals-and-sandbox",
          "--color",
          "never",
          options.prompt,
        ],
        {
          cwd: options.cwd,
          stdio: ["ignore", "pipe", "pipe"],
          env: {
            PATH: process.env.PATH,
            HOME: home,
            CODEX_HOME: home,
            TMPDIR: process.env.TMPDIR,
            OPENAI_API_KEY: "dummy",
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
