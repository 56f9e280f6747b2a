import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard, repoRoot } from "../helpers/cli.js";
import { workspace } from "../helpers/temp.js";

describe("hookyard errors", () => {
  it("a command line commander refuses is one line in hookyard's error style, with its suggestion (exit 2)", async () => {
    const cwd = await workspace();
    const remedy = "(add --help to the command to see its usage)";
    const cases: Array<[string[], string]> = [
      [["frobnicate"], "unknown command 'frobnicate'"],
      [["lst"], "unknown command 'lst'; did you mean list?"],
      [["list", "--jsn"], "unknown option '--jsn'; did you mean --json?"],
      [["grant"], "missing required argument 'name'"],
      [["install", "doc-reader", "--registry"], "option '--registry <url>' argument missing"],
    ];
    for (const [args, message] of cases) {
      const result = await hookyard(args, { cwd });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toBe(`hookyard: CLI_ERR_USAGE: ${message} ${remedy}\n`);
    }
  });

  it("a model spec it does not understand is a usage error naming the code and the fix", async () => {
    const result = await hookyard(["run", "hi", "--model", "gpt"], { cwd: await workspace() });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      "hookyard: CLI_ERR_MODEL_SPEC: --model gpt is not understood (use --model scripted:<file.json> or --model openai:<model-name>)",
    );
  });

  it("a broken hookyard.json is one clear line, no stack trace; --debug adds the stack", async () => {
    const dir = await workspace({ "hookyard.json": "{ rules: [" });
    const plain = await hookyard(["list"], { cwd: dir });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^hookyard: RUN_ERR_CONFIG_INVALID: .*hookyard\.json is not valid JSON/);
    expect(plain.stderr.trim().split("\n")).toHaveLength(1);
    expect(plain.stderr).not.toMatch(/\n\s+at /);

    const debug = await hookyard(["list", "--debug"], { cwd: dir });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("a broken hookyard.json or hookyard.lock has one code whichever command reads it", async () => {
    const notJson = await workspace({ "hookyard.json": "{ rules: [" });
    const badRange = await workspace({
      "hookyard.json": JSON.stringify({ community: { "doc-reader": "banana" } }),
    });
    const badLock = await workspace({ "hookyard.lock": "{ not json" });
    const commands = [
      ["list"],
      ["install"],
      ["uninstall", "doc-reader"],
      ["grant", "doc-reader", "env:HOME"],
      ["outdated"],
    ];
    for (const args of commands) {
      const result = await hookyard(args, { cwd: notJson });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toMatch(
        /^hookyard: RUN_ERR_CONFIG_INVALID: .*hookyard\.json is not valid JSON/,
      );
    }
    for (const args of [["install"], ["outdated"], ["audit"]]) {
      const result = await hookyard(args, { cwd: badRange });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toMatch(
        /^hookyard: RUN_ERR_CONFIG_INVALID: .*hookyard\.json: community\.doc-reader: must be a semver range/,
      );
    }
    for (const args of [["install"], ["verify"], ["audit"], ["uninstall", "doc-reader"]]) {
      const result = await hookyard(args, { cwd: badLock });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toMatch(
        /^hookyard: RUN_ERR_LOCK_INVALID: .*hookyard\.lock is not valid JSON/,
      );
    }
    const listed = await hookyard(["list", "--json"], { cwd: badLock });
    expect(JSON.parse(listed.stdout).problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "RUN_ERR_LOCK_INVALID" })]),
    );
  });

  it("a missing script file is reported with its path, and says to check the path (not to fix the script)", async () => {
    const dir = await workspace();
    const result = await hookyard(["run", "hi", "--model", "scripted:nope.json"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `hookyard: RUN_ERR_SCRIPT_INVALID: no model script can be read at ${join(dir, "nope.json")} (ENOENT): check the path after scripted: (it is relative to the current directory)`,
    );
    expect(result.stderr).not.toContain("fix the script");
  });

  it("--cwd that is not a directory is a usage error", async () => {
    const result = await hookyard(["list", "--cwd", "/does/not/exist"], { cwd: await workspace() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("CLI_ERR_NOT_A_DIRECTORY");
  });

  it("--help lists every command and exits 0", async () => {
    const result = await hookyard(["--help"], { cwd: await workspace() });
    expect(result.code).toBe(0);
    for (const name of ["init", "list", "run"]) expect(result.stdout).toContain(name);
  });

  it("a file where a folder is needed is a filesystem error naming the path, not an unexpected error", async () => {
    const dir = await workspace({ ".hookyard": "not a folder" });
    const result = await hookyard(["init"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hookyard: CLI_ERR_FILESYSTEM: ENOTDIR: .*\.hookyard\/hooks/);
    expect(result.stderr).not.toContain("unexpected");
  });

  it("output piped into a reader that stops early ends quietly, not with an EPIPE stack", async () => {
    const dir = await workspace();
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        "sh",
        ["-c", `${JSON.stringify(join(repoRoot, "bin", "hookyard.js"))} run --json | head -1`],
        {
          cwd: dir,
        },
      );
      let stderr = "";
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.on("close", (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/EPIPE|\n\s+at /);
  });
});
