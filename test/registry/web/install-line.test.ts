import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";
import { hookPackage, publish, startRegistry, type TestRegistry } from "../helpers.js";

/**
 * The install line a package page offers, taken from the page and run as CI would run it: by
 * /bin/sh, with no terminal to answer the grant question, against the real CLI. It must grant
 * what the version asks for, and a publisher's odd path must reach hookyard as one literal word.
 */

const entities: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

/** The command on the page, as the browser shows and copies it. */
async function installLine(reg: TestRegistry, path: string): Promise<string> {
  const page = (await reg.call(path)).bytes.toString();
  const code = page.match(/<pre class="install-line" id="install-line"><code>([^<]*)<\/code><\/pre>/)?.[1];
  if (code === undefined) throw new Error(`no install line on ${path}`);
  return code.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity] ?? entity);
}

function sh(line: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", line], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const oddPath = "notes/it's $(touch pwned) *";

async function publishOdd(reg: TestRegistry, version: string) {
  const capabilities = {
    fs: { read: ["docs", oddPath] },
    net: ["[::1]:8080", "api.example.com:443"],
    process: ["git"],
    env: ["HOME"],
  };
  const tarball = await hookPackage({
    name: "odd-guard",
    version,
    manifest: {
      hookyard: { main: "dist/hook.js", events: ["tool_before"], capabilities, effects: ["block"] },
    },
  });
  const answer = await publish(reg, reg.admin, tarball, "odd-guard", version);
  expect(answer.status, answer.bytes.toString()).toBe(201);
}

describe("the install line on a package page", () => {
  it("names the version and a --grant for each capability it asks for, shell-quoted where needed", async () => {
    const reg = await startRegistry();
    await publishOdd(reg, "1.0.0");
    const line = await installLine(reg, "/packages/odd-guard");
    expect(line).toBe(
      "hookyard install odd-guard@1.0.0 --sandbox --grant fs.read:docs --grant 'fs.read:notes/it'\\''s $(touch pwned) *' --grant 'net:[::1]:8080' --grant net:api.example.com:443 --grant process:git --grant env:HOME",
    );
    expect(await installLine(reg, "/packages/odd-guard/v/1.0.0")).toBe(line);
  });

  it("pasted into a shell with no terminal, installs the hook with every grant it needs and runs nothing else", async () => {
    if (!existsSync(join(repoRoot, "dist", "cli", "main.js"))) throw new Error("build first: npm run build");
    const reg = await startRegistry();
    await publishOdd(reg, "1.0.0");
    const line = await installLine(reg, "/packages/odd-guard");
    const ws = await tempDir();
    const bin = join(ws, ".bin");
    await mkdir(bin);
    await symlink(join(repoRoot, "bin", "hookyard.js"), join(bin, "hookyard"));
    const result = await sh(line, ws, {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: ws,
      HOOKYARD_REGISTRY: reg.url,
      HOOKYARD_CONFIG: join(ws, ".user-config.json"),
      NO_COLOR: "1",
    });
    expect(result.stderr + result.stdout).not.toContain("not granted");
    expect(result.code, result.stderr).toBe(0);
    const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
    const entry = lock.packages["odd-guard"];
    expect(entry.version).toBe("1.0.0");
    expect([...entry.grants].sort()).toEqual([...entry.requested].sort());
    expect(entry.grants).toContain(`fs.read:${oddPath}`);
    expect(existsSync(join(ws, "pwned"))).toBe(false);
  }, 30_000);
});
