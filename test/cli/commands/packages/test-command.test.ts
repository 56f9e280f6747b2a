import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard } from "../../../helpers/cli.js";
import { tempDir, writeFiles } from "../../../helpers/temp.js";

const manifest = JSON.stringify({
  name: "guard",
  version: "1.0.0",
  type: "module",
  hookyard: { main: "dist/hook.js", events: ["tool_before"] },
});
const hookSource = `import { defineHook } from "hookyard";
export default defineHook({ name: "guard", on: { tool_before: () => ({ block: "no" }) } });
`;
const blocksTest = `import assert from "node:assert/strict";
import { test } from "node:test";
import { sandboxedHook } from "hookyard/testing";
test("blocks", async () => {
  const hook = await sandboxedHook(new URL("../src/hook.ts", import.meta.url).pathname);
  try {
    assert.equal((await hook.run("tool_before", {})).verdict, "block");
  } finally {
    await hook.close();
  }
});
`;

describe("hookyard test", () => {
  it("refuses a folder that is not a hook package, naming the fix, with exit 2", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "plain" }));
    const result = await hookyard(["test"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a hook package (no package.json with a hookyard field)");
    expect(result.stderr).toContain("hookyard new <name>");
  });

  it("runs only the files given, and passes node --test's exit code through", async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      "package.json": manifest,
      "src/hook.ts": hookSource,
      "test/blocks.test.mjs": blocksTest,
      "test/fails.test.mjs": `import { test } from "node:test";\ntest("fails", () => { throw new Error("boom"); });\n`,
    });
    const env = { NODE_OPTIONS: "--test-reporter=tap" };
    const one = await hookyard(["test", "test/blocks.test.mjs"], { cwd: dir, env });
    expect(one.stdout).toMatch(/^# pass 1$/m);
    expect(one.stdout).toMatch(/^# fail 0$/m);
    expect(one.code).toBe(0);
    const all = await hookyard(["test"], { cwd: dir, env });
    expect(all.stdout).toMatch(/^# fail 1$/m);
    expect(all.code).toBe(1);
  }, 60_000);

  it("uses the package's own installed hookyard where it has one", async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      "package.json": manifest,
      "src/hook.ts": hookSource,
      "test/blocks.test.mjs": blocksTest,
      // An installed hookyard whose test helper says who it is: the tests must get this one.
      "node_modules/hookyard/package.json": JSON.stringify({
        name: "hookyard",
        type: "module",
        exports: { ".": { types: "./index.d.ts", default: "./index.js" }, "./testing": "./testing.js" },
      }),
      "node_modules/hookyard/index.js": "export const defineHook = (hook) => hook;\n",
      "node_modules/hookyard/index.d.ts": "export declare function defineHook<T>(hook: T): T;\n",
      "node_modules/hookyard/testing.js": `export async function sandboxedHook() { throw new Error("the installed hookyard/testing"); }\n`,
    });
    const result = await hookyard(["test"], { cwd: dir, env: { NODE_OPTIONS: "--test-reporter=tap" } });
    expect(result.stdout).toContain("the installed hookyard/testing");
    expect(result.code).toBe(1);
  }, 60_000);

  it("refuses a tsconfig.json TypeScript cannot use, running no test", async () => {
    const dir = await tempDir();
    await writeFiles(dir, {
      "package.json": manifest,
      "src/hook.ts": hookSource,
      "tsconfig.json": JSON.stringify({ extends: "./missing.json", compilerOptions: { strict: true } }),
      "test/blocks.test.mjs": blocksTest,
    });
    const result = await hookyard(["test"], { cwd: dir });
    expect(result.stderr).toContain("CLI_ERR_TSCONFIG");
    expect(result.stderr).toContain(`${join(dir, "tsconfig.json")} is not a usable tsconfig`);
    expect(result.stdout).not.toMatch(/# tests/);
    expect(result.code).toBe(1);
  });
});
