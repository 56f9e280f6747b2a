import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard } from "../../helpers/cli.js";
import { workspace } from "../../helpers/temp.js";

const config = `{
  "hooks": {
    "audit-log": { "enabled": "no" }
  },
  "community": { "doc-reader": "banana" }
}
`;

const broken = {
  "hookyard.json": config,
  "hookyard.lock": '{ "lockfileVersion": 99, "packages": [] }\n',
  ".hookyard/hooks/types.ts": [
    'import { defineHook } from "hookyard";',
    "",
    'const count: number = "three";',
    'export default defineHook({ name: "types", on: { tool_before: () => ({ block: String(count) }) } });',
    "",
  ].join("\n"),
  ".hookyard/hooks/typo.ts": [
    'import { defineHook } from "hookyard";',
    "",
    "export default defineHook({",
    '  name: "typo",',
    "  on: {",
    "    tool_befor() {},",
    "  },",
    "});",
    "",
  ].join("\n"),
  ".hookyard/hooks/syntax.ts": "import x from\n",
  ".hookyard/rules/r.md": "---\nevent: bsh\naction: maybe\npatern: x\n---\n\nRule message.\n",
};

describe("hookyard check", () => {
  it("reports every problem of the workspace at once, each at its file:line:column, and changes no file", async () => {
    const ws = await workspace(broken);
    const result = await hookyard(["check"], { cwd: ws });
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split("\n");
    for (const expected of [
      '.hookyard/hooks/syntax.ts:2:1 - RUN_ERR_HOOK_LOAD: hook "syntax": ',
      ".hookyard/hooks/types.ts:3:7 - TS2322: Type 'string' is not assignable to type 'number'.",
      '.hookyard/hooks/typo.ts:6:5 - RUN_ERR_HOOK_INVALID: hook "typo": its default export is not a valid hook definition: on.tool_befor: "tool_befor" is not a point: did you mean tool_before?',
      ".hookyard/hooks/typo.ts:6:5 - TS2561: ",
      '.hookyard/rules/r.md:2:1 - RUN_ERR_HOOK_INVALID: hook "r": event: "bsh" is not an event here',
      '.hookyard/rules/r.md:3:1 - RUN_ERR_HOOK_INVALID: hook "r": action: ',
      '.hookyard/rules/r.md:4:1 - RUN_ERR_HOOK_INVALID: hook "r": patern: is not a rule field',
      'hookyard.json:3:20 - RUN_ERR_CONFIG_INVALID: hook "audit-log": hooks.audit-log.enabled: ',
      "hookyard.json:5:18 - RUN_ERR_CONFIG_INVALID: community.doc-reader: must be a semver range such as ^1.2.0",
      "hookyard.lock:1:3 - RUN_ERR_LOCK_INVALID: lockfileVersion: ",
      "hookyard.lock:1:26 - RUN_ERR_LOCK_INVALID: packages: ",
    ]) {
      expect(
        lines.filter((line) => line.startsWith(expected)),
        expected,
      ).toHaveLength(1);
    }
    expect(lines.at(-1)).toBe("checked workspace .: 12 problems (3 hook files type-checked)");
    expect(result.stderr).toBe("");
    expect(await readFile(join(ws, "hookyard.json"), "utf8")).toBe(config);
    expect(await readFile(join(ws, "hookyard.lock"), "utf8")).toBe(broken["hookyard.lock"]);
  });

  it("--json gives the same problems as data", async () => {
    const ws = await workspace(broken);
    const result = await hookyard(["check", "--json"], { cwd: ws });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.typeChecked).toEqual([
      ".hookyard/hooks/syntax.ts",
      ".hookyard/hooks/types.ts",
      ".hookyard/hooks/typo.ts",
    ]);
    expect(report.problems).toHaveLength(12);
    expect(report.problems).toContainEqual({
      file: "hookyard.json",
      line: 5,
      column: 18,
      code: "RUN_ERR_CONFIG_INVALID",
      message: "community.doc-reader: must be a semver range such as ^1.2.0",
    });
  });

  it("a hookyard.json that is not JSON is one problem at the place JSON.parse stopped, no stack trace", async () => {
    const ws = await workspace({ "hookyard.json": '{\n  "rules": [\n    { name: "x" }\n  ]\n}\n' });
    const result = await hookyard(["check"], { cwd: ws });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^hookyard\.json:3:7 - RUN_ERR_CONFIG_INVALID: not valid JSON: /);
    expect(result.stdout.trim().split("\n")).toHaveLength(2);
    expect(result.stderr).toBe("");
  });

  it("a workspace with nothing to fix exits 0 and says how much it checked", async () => {
    const ws = await workspace({
      ".hookyard/hooks/guard.ts": [
        'import { defineHook } from "hookyard";',
        "",
        "export default defineHook({",
        '  name: "guard",',
        '  on: { tool_before: (ctx) => (ctx.tool === "bash" ? { block: "no" } : undefined) },',
        "});",
        "",
      ].join("\n"),
    });
    const result = await hookyard(["check"], { cwd: ws });
    expect(result.stdout).toMatch(
      /^checked workspace \.: \d+ hooks?, 1 hook file type-checked, no problems\n$/,
    );
    expect(result.code).toBe(0);
  });
});
