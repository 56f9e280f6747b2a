import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageVersion } from "../../cli/package-root.js";
import { inspectTarball } from "../../package/tarball/inspect.js";
import { repoRoot } from "../helpers/cli.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp.js";

function hookyardIn(cwd: string, args: string[]) {
  return runCli(args, { cwd, env: { HOOKYARD_CONFIG: join(cwd, "no-config.json") } });
}

/**
 * The scaffold's own `npm test` script, run as npm runs it (sh -c, this Node first on PATH), stopped
 * after 60 s. The TAP reporter, so the summary reads the same on every line: Node 22 prints TAP
 * when its output is not a terminal, 24 and 26 their spec reporter ("ℹ pass 2").
 */
async function scaffoldTest(dir: string): Promise<{ code: number | null; output: string }> {
  const script = JSON.parse(await readFile(join(dir, "package.json"), "utf8")).scripts.test as string;
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script], {
      cwd: dir,
      env: {
        PATH: [dirname(process.execPath), join(dir, "node_modules", ".bin"), process.env.PATH].join(":"),
        HOME: dir,
        NODE_OPTIONS: "--test-reporter=tap",
      },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("hookyard new", () => {
  it("scaffolds a package that packs, and whose own test passes in the real sandbox", async () => {
    const cwd = await tempDir();
    const made = await hookyardIn(cwd, ["new", "no-rm-rf"]);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const dir = join(cwd, "no-rm-rf");
    expect(made.stdout).toContain(`Created the hook package no-rm-rf in ${dir}`);
    expect(made.stdout).toContain("cd no-rm-rf");
    const files = ["package.json", "src/hook.ts", "test/hook.test.mjs", "README.md", ".gitignore"];
    for (const file of files) expect(made.stdout).toContain(`  ${file}\n`);
    expect((await readdir(dir, { recursive: true })).sort()).toEqual([...files, "src", "test"].sort());

    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: "no-rm-rf",
      version: "0.1.0",
      license: "MIT",
      type: "module",
      scripts: {
        build: "hookyard pack",
        test: 'node --no-node-snapshot --test "test/**/*.test.{js,mjs,ts}"',
      },
      devDependencies: { hookyard: `^${packageVersion()}` },
      hookyard: {
        main: "dist/hook.js",
        events: ["tool_before"],
        matcher: { tool: "^bash$" },
        capabilities: {},
        effects: ["block"],
      },
    });
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe("*.tgz\nnode_modules\n");
    expect(await readFile(join(dir, "README.md"), "utf8")).toContain("hookyard install no-rm-rf --sandbox");

    const packed = await hookyardIn(dir, ["pack", "--json"]);
    expect(packed.code).toBe(0);
    const inspected = await inspectTarball(await readFile(join(dir, "no-rm-rf-0.1.0.tgz")));
    expect(inspected.files.map((f) => f.path)).toEqual(["README.md", "dist/hook.js", "package.json"]);

    await mkdir(join(dir, "node_modules"));
    await symlink(repoRoot, join(dir, "node_modules", "hookyard"), "dir");
    const passing = await scaffoldTest(dir);
    expect(passing.output).toMatch(/^# tests 2$/m);
    expect(passing.output).toMatch(/^# pass 2$/m);
    expect(passing.code).toBe(0);

    // The test really runs the hook: a guard that never blocks fails it.
    const source = await readFile(join(dir, "src/hook.ts"), "utf8");
    await writeFile(join(dir, "src/hook.ts"), source.replace("return recursive && force", "return false &&"));
    const failing = await scaffoldTest(dir);
    expect(failing.output).toMatch(/^# fail 1$/m);
    expect(failing.code).toBe(1);
  }, 120_000);

  it("puts a scoped package in a folder named without the scope, or in --dir, and answers --json", async () => {
    const cwd = await tempDir();
    const scoped = await hookyardIn(cwd, ["new", "@acme/guard", "--json"]);
    expect(scoped.code).toBe(0);
    expect(JSON.parse(scoped.stdout)).toEqual({
      name: "@acme/guard",
      dir: join(cwd, "guard"),
      files: ["package.json", "src/hook.ts", "test/hook.test.mjs", "README.md", ".gitignore"],
    });
    expect(JSON.parse(await readFile(join(cwd, "guard", "package.json"), "utf8")).name).toBe("@acme/guard");
    expect(await readFile(join(cwd, "guard", "src/hook.ts"), "utf8")).toContain('name: "guard"');

    await mkdir(join(cwd, "empty"));
    const intoEmpty = await hookyardIn(cwd, ["new", "other", "--dir", "empty"]);
    expect(intoEmpty.code).toBe(0);
    expect(await readdir(join(cwd, "empty"))).toContain("package.json");
  });

  it("refuses a name that is not a package name with exit 2, writing nothing", async () => {
    const cwd = await tempDir();
    for (const name of ["No-Caps", "../escape", "@scope/", "has space", ".hidden", "a/b", "x".repeat(215)]) {
      const result = await hookyardIn(cwd, ["new", name]);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain("CLI_ERR_USAGE");
      expect(result.stderr).toContain("is not a package name");
    }
    expect(await readdir(cwd)).toEqual([]);
  });

  it("refuses a folder that is not empty, or a file in the way, and leaves it untouched", async () => {
    const cwd = await tempDir();
    await mkdir(join(cwd, "guard"));
    await writeFile(join(cwd, "guard", "package.json"), "mine");
    const result = await hookyardIn(cwd, ["new", "guard"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${join(cwd, "guard")} is not empty; nothing was written`);
    expect(await readdir(join(cwd, "guard"))).toEqual(["package.json"]);
    expect(await readFile(join(cwd, "guard", "package.json"), "utf8")).toBe("mine");

    await writeFile(join(cwd, "afile"), "x");
    const file = await hookyardIn(cwd, ["new", "guard", "--dir", "afile"]);
    expect(file.code).toBe(1);
    expect(file.stderr).toContain("exists and is not a folder");
    expect((await stat(join(cwd, "afile"))).isFile()).toBe(true);
  });
});
