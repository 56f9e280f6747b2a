import { spawn } from "node:child_process";
import { cp, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { startRegistry } from "../registry/helpers.js";

/** The docs' example, as a user would have it: a file beside node_modules/hookyard. */
async function exampleFromDocs(): Promise<string> {
  const page = await readFile(join(repoRoot, "docs/library.md"), "utf8");
  const block = /## Install a community hook and run it[\s\S]*?```js\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error("docs/library.md has no js block under 'Install a community hook and run it'");
  return block;
}

function run(
  file: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the library example in docs/library.md", () => {
  it("publishes, installs sandboxed and dispatches through hookyard and hookyard/client only, printing nothing", async () => {
    const registry = await startRegistry();
    const home = await tempDir();
    const app = join(home, "app");
    await mkdir(join(app, "node_modules"), { recursive: true });
    await symlink(repoRoot, join(app, "node_modules", "hookyard"), "dir");
    const source = await exampleFromDocs();
    // Only the two public entry points: nothing reaches into the package's files.
    const specifiers = [...source.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(specifiers)).toEqual(new Set(["hookyard", "hookyard/client"]));
    await writeFile(join(app, "example.mjs"), source);
    const workspace = join(home, "workspace");
    await mkdir(workspace);
    await writeFile(join(workspace, "hookyard.json"), "{}\n");
    const packageDir = join(home, "dangerous-command-guard");
    await cp(join(repoRoot, "sample-hooks/dangerous-command-guard"), packageDir, {
      recursive: true,
      filter: (path) => !path.includes("node_modules"),
    });

    const result = await run(join(app, "example.mjs"), {
      REGISTRY: registry.url,
      HOOKYARD_TOKEN: registry.admin,
      PACKAGE_DIR: packageDir,
      WORKSPACE: workspace,
      HOOKYARD_CONFIG: join(home, "user-config.json"),
    });

    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("");
    // Exit 0 only if the sandboxed guard blocked `rm -rf ~` (the example's own check).
    expect(result.code).toBe(0);
    const lock = JSON.parse(await readFile(join(workspace, "hookyard.lock"), "utf8"));
    expect(lock.packages["dangerous-command-guard"]).toMatchObject({ trust: "sandbox", version: "1.0.0" });
  });
});
