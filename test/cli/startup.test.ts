import { spawn, spawnSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isCommandGroup } from "../../cli/command.js";
import { commands } from "../../cli/commands/index.js";
import { type Io, main } from "../../cli/main.js";
import { repoRoot } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { processWaitMs } from "../helpers/timeouts.js";
import { startRegistry } from "../registry/helpers.js";
import { publishGuard } from "./commands/packages/install/fixtures.js";

/**
 * `hookyard` starts fast because each command loads its code only when it runs (issue 6 wants an
 * install in 300 ms, node's own start included). These run the built binary (`npm test` builds it)
 * in a real node with a preload that records every module it loads: ES modules through a resolve
 * hook, CommonJS through require.cache.
 */

const bin = join(repoRoot, "bin", "hookyard.js");

const hooks = `import { appendFileSync } from "node:fs";
let log;
export function initialize(file) {
  log = file;
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + "\\n");
  return resolved;
}
`;

const preload = `import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";
const log = process.env.STARTUP_TEST_MODULE_LOG;
register(new URL("./hooks.mjs", import.meta.url), { data: log });
process.on("exit", () => {
  const required = Object.keys(createRequire(import.meta.url).cache).map((path) => pathToFileURL(path).href);
  appendFileSync(log, required.join("\\n") + "\\n");
});
`;

interface Traced {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every npm package a module was loaded from, sorted. */
  packages: string[];
  /** hookyard's own modules that were loaded, relative to the repo ("dist/cli/main.js"), sorted. */
  own: string[];
}

/** Runs the built CLI with the module-recording preload; killed after 20 s. */
async function traced(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Traced> {
  const dir = await tempDir();
  const log = join(dir, "modules.log");
  await writeFile(join(dir, "hooks.mjs"), hooks);
  await writeFile(join(dir, "preload.mjs"), preload);
  await writeFile(log, "");
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (done, fail) => {
      const child = spawn(
        process.execPath,
        ["--no-node-snapshot", "--import", join(dir, "preload.mjs"), bin, ...args],
        {
          cwd: options.cwd ?? dir,
          env: { ...process.env, NO_COLOR: "1", ...options.env, STARTUP_TEST_MODULE_LOG: log },
          stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
          timeout: processWaitMs,
        },
      );
      child.stdin?.end(options.input);
      let out = "";
      let err = "";
      child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.on("error", fail);
      child.on("close", (exit) => done({ code: exit, stdout: out, stderr: err }));
    },
  );
  const packages = new Set<string>();
  const own = new Set<string>();
  for (const url of (await readFile(log, "utf8")).split("\n")) {
    if (!url.startsWith("file:")) continue;
    const path = fileURLToPath(url);
    const at = path.lastIndexOf("/node_modules/");
    if (at < 0) {
      if (path.startsWith(repoRoot)) own.add(path.slice(repoRoot.length).replace(/^\//, ""));
      continue;
    }
    const [scope = "", name = ""] = path.slice(at + "/node_modules/".length).split("/");
    packages.add(scope.startsWith("@") ? `${scope}/${name}` : scope);
  }
  return { code, stdout, stderr, packages: [...packages].sort(), own: [...own].sort() };
}

type Entry = (typeof commands)[number];

/** Every command and group with the words that run it: ["init"], …, ["registry", "token", "create"]. */
function everyCommand(): Array<{ path: string[]; entry: Entry }> {
  const found: Array<{ path: string[]; entry: Entry }> = [];
  const walk = (entries: readonly Entry[], prefix: string[]) => {
    for (const entry of entries) {
      found.push({ path: [...prefix, entry.name], entry });
      if (isCommandGroup(entry)) walk(entry.subcommands, [...prefix, entry.name]);
    }
  };
  walk(commands, []);
  return found;
}

describe("hookyard start-up", () => {
  it("the recording sees what a command loads: `registry token create` loads sqlite and drizzle", async () => {
    const { dataDir } = await startRegistry();
    const result = await traced(["registry", "token", "create", "--owner", "alice", "--data", dataDir]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Store the token now");
    // better-sqlite3 is CommonJS (require.cache), drizzle-orm an ES module (the resolve hook).
    expect(result.packages).toEqual(expect.arrayContaining(["better-sqlite3", "drizzle-orm"]));
  });

  it("`hookyard --version` loads no dependency but commander", async () => {
    const result = await traced(["--version"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toBe("");
    expect(result.packages).toEqual(["commander"]);
  });

  it.each([["--help"], ["-h"]])(
    "`hookyard %s` to a pipe prints the help the build rendered (dist/cli/help.txt), loading nothing but the bin",
    async (flag) => {
      const result = await traced([flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.packages).toEqual([]);
      expect(result.own).toEqual(["bin/hookyard.js"]);
      // Exactly what commander prints to a pipe.
      let rendered = "";
      const sink = {
        write: (text: string) => {
          rendered += text;
          return true;
        },
        isTTY: false,
      };
      const io = { stdout: sink, stderr: sink, stdin: process.stdin, env: {}, cwd: repoRoot };
      expect(await main(["--help"], io as unknown as Io)).toBe(0);
      expect(result.stdout).toBe(rendered);
    },
  );

  it("`hookyard --help` goes through the CLI when help.txt is from another build", async () => {
    const dir = await tempDir();
    // A copy of the package whose help.txt names another main.js.
    await cp(join(repoRoot, "bin"), join(dir, "bin"), { recursive: true });
    await cp(join(repoRoot, "dist"), join(dir, "dist"), { recursive: true });
    await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"));
    await cp(join(repoRoot, "package.json"), join(dir, "package.json"));
    const help = join(dir, "dist", "cli", "help.txt");
    const [, ...text] = (await readFile(help, "utf8")).split("\n");
    await writeFile(help, ["hookyard-help 1:1", "stale", ...text].join("\n"));
    const result = spawnSync(process.execPath, [join(dir, "bin", "hookyard.js"), "--help"], {
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("stale");
    expect(result.stdout).toContain("Usage: hookyard [options] [command]");
  });

  it("`hookyard --help` lists every command, and each group's help its subcommands", async () => {
    const groups = [
      { path: [] as string[], names: commands.map((c) => c.name) },
      ...everyCommand().flatMap(({ path, entry }) =>
        isCommandGroup(entry) ? [{ path, names: entry.subcommands.map((c) => c.name) }] : [],
      ),
    ];
    expect(groups.length).toBeGreaterThan(1);
    for (const { path, names } of groups) {
      const result = await traced([...path, "--help"]);
      expect(result.code, result.stderr).toBe(0);
      const listed = [...result.stdout.matchAll(/^ {2}([a-z][\w-]*)\b/gm)].map((m) => m[1]);
      expect(listed, `hookyard ${path.join(" ")} --help`).toEqual([...names, "help"]);
    }
  });

  it(
    "every command's help shows its arguments and options, and loads no dependency but commander",
    async () => {
      const leaves = everyCommand().flatMap(({ path, entry }) =>
        isCommandGroup(entry) ? [] : [{ path, entry }],
      );
      expect(leaves.length).toBeGreaterThan(10);
      for (const { path, entry } of leaves) {
        const result = await traced([...path, "--help"]);
        const shown = `hookyard ${path.join(" ")} --help`;
        expect(result.code, result.stderr).toBe(0);
        for (const arg of entry.args ?? []) expect(result.stdout, shown).toContain(arg.name);
        for (const option of entry.options ?? []) expect(result.stdout, shown).toContain(option.flags);
        expect(result.packages, shown).toEqual(["commander"]);
      }
      // The bin once per command (some 30): at a load of 10 on 2 cores that took over 60 s.
    },
    5 * processWaitMs,
  );

  it("`hookyard install` loads no registry server, database, sandbox or web code", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const dir = await tempDir();
    const result = await traced(["install", "guard", "--registry", registry.url, "--yes"], {
      cwd: dir,
      env: { HOOKYARD_CONFIG: join(dir, ".user-config.json") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`installed guard@1.0.0 (sandboxed) from ${registry.url}`);
    const heavy = [
      "esbuild",
      "yaml",
      "fastify",
      "better-sqlite3",
      "drizzle-orm",
      "isolated-vm-6",
      "isolated-vm-7",
      "markdown-it",
      "sanitize-html",
      "undici",
    ];
    expect(result.packages.filter((name) => heavy.includes(name))).toEqual([]);
  });

  it("the bin starts node without --no-node-snapshot: only the processes that make isolates pay for it", async () => {
    const shebang = (await readFile(bin, "utf8")).split("\n")[0];
    expect(shebang).toBe("#!/usr/bin/env node");
  });

  it("`hookyard exec` answered by the daemon loads no dependency and one module of hookyard's, the client's bundle", async () => {
    const root = await tempDir();
    await writeFile(join(root, "hookyard.json"), "{}");
    const runtime = await tempDir();
    const env = { HOOKYARD_EXEC_ROUTE: "daemon", XDG_RUNTIME_DIR: runtime, HOOKYARD_DAEMON_IDLE_MS: "20000" };
    const input = JSON.stringify({
      session_id: "s1",
      cwd: root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    });
    try {
      for (const round of ["starts the daemon", "finds it warm"]) {
        const result = await traced(["exec", "--profile", "claude", "PreToolUse"], { cwd: root, env, input });
        expect(result.code, `${round}: ${result.stderr}`).toBe(0);
        expect(result.packages, round).toEqual([]);
        // The build's one-file bundle of client.js and those it imports (cli/daemon/client-bundle.ts).
        expect(result.own, round).toEqual(["bin/hookyard.js", "dist/cli/daemon/exec-client.js"]);
      }
    } finally {
      const logs = (await readdir(join(runtime, "hookyard"))).filter((name) => name.endsWith(".log"));
      for (const name of logs) {
        const text = await readFile(join(runtime, "hookyard", name), "utf8");
        for (const [, pid] of text.matchAll(/pid (\d+) serves/g)) {
          try {
            process.kill(Number(pid), "SIGKILL");
          } catch {
            // gone already
          }
        }
      }
    }
  });

  it("`hookyard exec` in its own process loads one file of hookyard's, and no esbuild once the workspace's hook bundles are cached", async () => {
    const root = await tempDir();
    await mkdir(join(root, ".hookyard", "hooks"), { recursive: true });
    await writeFile(
      join(root, ".hookyard", "hooks", "guard.ts"),
      'export default { name: "guard", on: { tool_before(ctx) { if (String(ctx.args.command).includes("rm")) return { block: "no" }; } } };\n',
    );
    const input = JSON.stringify({
      session_id: "s1",
      cwd: root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
    });
    const env = { HOOKYARD_EXEC_ROUTE: "inprocess" };
    const first = await traced(["exec", "--profile", "claude", "PreToolUse"], { cwd: root, env, input });
    expect(first.stdout, first.stderr).toContain('"permissionDecision":"deny"');
    expect(first.packages).toContain("esbuild");
    const second = await traced(["exec", "--profile", "claude", "PreToolUse"], { cwd: root, env, input });
    expect(second.stdout, second.stderr).toContain('"permissionDecision":"deny"');
    expect(second.packages).not.toContain("esbuild");
    // The runner, the adapters, zod and semver as the build's one script (cli/daemon/in-process-bundle.ts,
    // run as a vm.Script, so no module import shows it), not some 300 modules resolved and linked one by one.
    expect(second.packages).toEqual([]);
    expect(second.own).toEqual(["bin/hookyard.js", "dist/cli/daemon/exec-client.js"]);
  });
});
