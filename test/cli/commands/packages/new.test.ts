import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../../package/tarball/inspect.js";
import { repoRoot } from "../../../helpers/cli.js";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir } from "../../../helpers/temp.js";

function hookyardIn(cwd: string, args: string[]) {
  return runCli(args, { cwd, env: { HOOKYARD_CONFIG: join(cwd, "no-config.json") } });
}

/**
 * An npm command run as the package's author runs it: hookyard installed on PATH (as a global
 * install puts it), this Node first, a fresh HOME and npm cache, and a registry that refuses every
 * connection, so anything that needs a package from a registry fails. Stopped after 120 s. The TAP
 * reporter, so the summary reads the same on every line (22 prints TAP off a terminal, 24 and 26
 * their spec reporter).
 */
async function npm(dir: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const bin = join(dir, "..", "global-bin");
  await mkdir(bin, { recursive: true });
  await symlink(join(repoRoot, "bin", "hookyard.js"), join(bin, "hookyard")).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    },
  );
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, {
      cwd: dir,
      env: {
        PATH: [dirname(process.execPath), bin, process.env.PATH].join(":"),
        HOME: join(dir, "..", "home"),
        npm_config_cache: join(dir, "..", "npm-cache"),
        npm_config_registry: "http://127.0.0.1:9/",
        npm_config_audit: "false",
        npm_config_fund: "false",
        npm_config_update_notifier: "false",
        NODE_OPTIONS: "--test-reporter=tap",
        NO_COLOR: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("hookyard new", () => {
  it("plays the author's path: new, npm install and npm test with no hookyard on any registry, and pack", async () => {
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
      scripts: { build: "hookyard pack", test: "hookyard test" },
      hookyard: {
        main: "dist/hook.js",
        events: ["tool_before"],
        matcher: { tool: "^bash$" },
        capabilities: {},
        effects: ["block"],
      },
    });
    expect(manifest).not.toHaveProperty("devDependencies");
    expect(manifest).not.toHaveProperty("dependencies");
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toBe("*.tgz\ndist/\nnode_modules\n");
    expect(await readFile(join(dir, "README.md"), "utf8")).toContain("hookyard install no-rm-rf --sandbox");

    const packed = await hookyardIn(dir, ["pack", "--json"]);
    expect(packed.code).toBe(0);
    const inspected = await inspectTarball(await readFile(join(dir, "no-rm-rf-0.1.0.tgz")));
    expect(inspected.files.map((f) => f.path)).toEqual(["README.md", "dist/hook.js", "package.json"]);

    // The author's next steps, word for word, with no hookyard on any registry.
    const installed = await npm(dir, ["install"]);
    expect(installed.output).not.toMatch(/ERR!/);
    expect(installed.code).toBe(0);
    const passing = await npm(dir, ["test"]);
    expect(passing.output).toContain("type-checked 1 file: no errors");
    expect(passing.output).toMatch(/^# tests 2$/m);
    expect(passing.output).toMatch(/^# pass 2$/m);
    expect(passing.code).toBe(0);

    // The test really runs the hook: a guard that never blocks fails it.
    const source = await readFile(join(dir, "src/hook.ts"), "utf8");
    await writeFile(
      join(dir, "src/hook.ts"),
      source.replace("return recursive && force &&", "return false &&"),
    );
    const failing = await npm(dir, ["test"]);
    expect(failing.output).toMatch(/^# fail 1$/m);
    expect(failing.code).not.toBe(0);

    // A type error is shown where it is, and no test runs on code that does not check.
    await writeFile(
      join(dir, "src/hook.ts"),
      source.replace("const words = simpleCommand", "const words: number = simpleCommand"),
    );
    const mistyped = await npm(dir, ["test"]);
    expect(mistyped.output).toMatch(
      /^src\/hook\.ts:8:9 - error TS2322: Type 'string\[\]' is not assignable to type 'number'/m,
    );
    expect(mistyped.output).toMatch(/hookyard test: \d+ type errors in 1 file; the tests were not run/);
    expect(mistyped.output).not.toMatch(/^# tests/m);
    expect(mistyped.code).not.toBe(0);
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
