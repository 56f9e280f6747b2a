import { spawnSync } from "node:child_process";
import { appendFile, cp, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard, repoRoot } from "../../../helpers/cli.js";
import { tempDir, workspace } from "../../../helpers/temp.js";
import { processWaitMs } from "../../../helpers/timeouts.js";
import { inputFor } from "../protocol/claude-profile-inputs.js";

/**
 * An event no daemon answers runs the chain from the build's bundle, with a V8 code cache the
 * first such event leaves in the runtime dir (cli/daemon/in-process-script.ts). A cache is only
 * ever a speed-up: whatever is in that file, the guard's answer is the same.
 */

const guard = `export default {
  name: "guard",
  on: { tool_before(ctx) { if (String(ctx.args.command).includes("rm -rf")) return { block: "rm -rf is not allowed" }; } },
};
`;

async function setup() {
  const root = await workspace({ ".hookyard/hooks/guard.mjs": guard });
  const runtime = await tempDir();
  const env = { HOOKYARD_EXEC_ROUTE: "inprocess", XDG_RUNTIME_DIR: runtime };
  const cacheDir = join(runtime, "hookyard", "compile-cache");
  const exec = (command: string, extra: NodeJS.ProcessEnv = {}) =>
    hookyard(["exec", "--profile", "claude", "PreToolUse"], {
      cwd: root,
      input: JSON.stringify(
        inputFor("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command } }),
      ),
      env: { ...env, ...extra },
    });
  const caches = async () =>
    (await readdir(cacheDir).catch(() => [] as string[])).filter((name) => name.endsWith(".v8"));
  return { exec, caches, cacheDir };
}

const denied = (stdout: string) => JSON.parse(stdout).hookSpecificOutput?.permissionDecision;

describe("the in-process route's code cache", () => {
  it("is left by the first event and used by the next, which answers the same", async () => {
    const { exec, caches, cacheDir } = await setup();
    const first = await exec("rm -rf ~");
    expect(denied(first.stdout), first.stderr).toBe("deny");
    const [cache] = await caches();
    expect(cache).toMatch(/^exec-in-process-v\d+\.\d+\.\d+-x64-[0-9a-f]{12}-\d+-\d+-\d+\.v8$/);
    const written = await stat(join(cacheDir, cache as string));
    expect(written.size).toBeGreaterThan(100_000);
    expect(written.mode & 0o077).toBe(0);

    const second = await exec("rm -rf ~");
    expect(second.stdout).toBe(first.stdout);
    const allowed = await exec("ls");
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).not.toContain("deny");
    // V8 took it: not taken again.
    expect((await stat(join(cacheDir, cache as string))).mtimeMs).toBe(written.mtimeMs);
  });

  it("that V8 refuses, or that an older build left, changes no answer and is replaced", async () => {
    const { exec, caches, cacheDir } = await setup();
    await exec("ls");
    const [cache] = await caches();
    const file = join(cacheDir, cache as string);
    await writeFile(file, Buffer.alloc(200_000, 0x5a));
    const otherBuild = join(cacheDir, cache?.replace(/-\d+-\d+-\d+\.v8$/, "-1-2-3.v8") as string);
    await writeFile(otherBuild, "an older build's cache");
    // Another install of hookyard, used in turn with this one, keeps its own.
    const otherInstall = cache?.replace(/-[0-9a-f]{12}-/, "-000000000000-") as string;
    await writeFile(join(cacheDir, otherInstall), "another install's cache");

    const answer = await exec("rm -rf ~");
    expect(denied(answer.stdout), answer.stderr).toBe("deny");
    expect(answer.stderr).not.toMatch(/cache/i);
    expect((await caches()).sort()).toEqual([cache, otherInstall].sort());
    expect((await readFile(file)).subarray(0, 16)).not.toEqual(Buffer.alloc(16, 0x5a));
  });

  it("is neither read nor written under NODE_DISABLE_COMPILE_CACHE", async () => {
    const { exec, caches } = await setup();
    const answer = await exec("rm -rf ~", { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(denied(answer.stdout), answer.stderr).toBe("deny");
    expect(await caches()).toEqual([]);
  });

  it("a bundle that throws as it loads refuses the tool call, and says what failed", async () => {
    const { cacheDir } = await setup();
    // A copy of this build whose in-process script throws before it defines anything.
    const install = await tempDir();
    for (const part of ["bin", "dist", "package.json"])
      await cp(join(repoRoot, part), join(install, part), { recursive: true });
    await symlink(join(repoRoot, "node_modules"), join(install, "node_modules"));
    await appendFile(
      join(install, "dist", "cli", "daemon", "exec-in-process.cjs"),
      '\nthrow new Error("the bundle broke");\n',
    );
    const root = await workspace({ ".hookyard/hooks/guard.mjs": guard });
    const ran = spawnSync(
      process.execPath,
      [join(install, "bin", "hookyard.js"), "exec", "--profile", "claude", "PreToolUse"],
      {
        cwd: root,
        input: JSON.stringify(
          inputFor("PreToolUse", { cwd: root, tool_name: "Bash", tool_input: { command: "ls" } }),
        ),
        env: {
          ...process.env,
          HOOKYARD_EXEC_ROUTE: "inprocess",
          XDG_RUNTIME_DIR: join(cacheDir, "..", ".."),
        },
        encoding: "utf8",
        timeout: processWaitMs,
      },
    );
    const answer = JSON.parse(ran.stdout).hookSpecificOutput;
    expect(answer.permissionDecision, ran.stderr).toBe("deny");
    expect(answer.permissionDecisionReason).toContain("could not check this tool call, so it is refused");
    expect(answer.permissionDecisionReason).toContain("the bundle broke");
  });
});
