import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ListedHook } from "../../../runner/load/load-hooks.js";
import { installFixture, noticeHook } from "../../helpers/lock-fixture.js";
import { runCli } from "../../helpers/run-cli.js";
import { tempDir, workspace } from "../../helpers/temp.js";

async function list(root: string, ...flags: string[]) {
  const config = join(await tempDir(), "config.json");
  return runCli(["list", ...flags], { cwd: root, env: { HOOKYARD_CONFIG: config } });
}

/** Three community hooks: sandboxed with grants, sandboxed without, trusted; and a workspace hook. */
async function installed() {
  const root = await workspace({
    ".hookyard/hooks/local.mjs":
      'export default { name: "local", priority: 10, on: { tool_before() {} } };\n',
  });
  const fixture = await installFixture(root, [
    {
      name: "doc-reader",
      version: "1.4.2",
      source: noticeHook("doc-reader", '"x"'),
      hookyard: {
        events: ["tool_before"],
        priority: 20,
        capabilities: { fs: { read: ["docs"] }, env: ["HOME"] },
      },
      grants: ["fs.read:docs", "env:HOME"],
    },
    {
      name: "@acme/quiet",
      version: "0.2.0",
      source: noticeHook("quiet", '"x"'),
      hookyard: { events: ["tool_before"], priority: 30, matcher: { tool: "^bash$" } },
    },
    {
      name: "power-tool",
      version: "3.0.0",
      source: noticeHook("power-tool", '"x"'),
      hookyard: { events: ["tool_before"], priority: 40 },
      trust: "trusted",
    },
  ]);
  return { root, ...fixture };
}

describe("hookyard list with community hooks", () => {
  it("shows each community hook with its version, trust and grants", async () => {
    const { root } = await installed();
    const result = await list(root);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const chain = result.stdout.slice(result.stdout.indexOf("tool_before\n")).split("\n").slice(1, 6);
    expect(chain.map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ["1.", "local", "workspace", "trusted", "priority 10", "inprocess"],
      [
        "2.",
        "doc-reader@1.4.2",
        "community",
        "sandboxed",
        "priority 20",
        "sandbox",
        "grants fs.read:docs env:HOME",
      ],
      [
        "3.",
        "@acme/quiet@0.2.0",
        "community",
        "sandboxed",
        "priority 30",
        "sandbox",
        "tool=^bash$",
        "no grants",
      ],
      ["4.", "power-tool@3.0.0", "community", "trusted", "priority 40", "inprocess", "full access"],
      ["5.", "audit-log", "builtin", "trusted", "priority 100", "inprocess", "background"],
    ]);
  });

  it("--json gives version and grants for sandboxed community hooks, version for trusted ones", async () => {
    const { root, bundle } = await installed();
    const result = await list(root, "--json");
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { chains: Array<{ point: string; hooks: ListedHook[] }> };
    const hooks = parsed.chains.find((c) => c.point === "tool_before")?.hooks ?? [];
    const byName = Object.fromEntries(hooks.map((h) => [h.name, h]));
    expect(byName["doc-reader"]).toEqual({
      name: "doc-reader",
      origin: "community",
      trust: "sandboxed",
      engine: "sandbox",
      priority: 20,
      mode: "sync",
      onError: "open",
      source: bundle["doc-reader"],
      version: "1.4.2",
      grants: ["fs.read:docs", "env:HOME"],
    });
    expect(byName["@acme/quiet"]).toMatchObject({
      version: "0.2.0",
      grants: [],
      matcher: { tool: "^bash$" },
    });
    expect(byName["power-tool"]).toMatchObject({ trust: "trusted", engine: "inprocess", version: "3.0.0" });
    expect(byName["power-tool"]).not.toHaveProperty("grants");
    expect(byName.local).not.toHaveProperty("version");
    expect(byName.local).not.toHaveProperty("grants");
  });

  it("a package whose store bytes changed is reported on stderr, shown as broken, and exits 1", async () => {
    const { root, bundle } = await installed();
    const file = bundle["power-tool"] as string;
    await writeFile(file, `${await readFile(file, "utf8")}\n// changed\n`);
    const result = await list(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^hookyard: error: RUN_ERR_STORE_MISMATCH: hook "power-tool" \\(${file}\\) could not be loaded and blocks at [a-z_, ]+ until fixed \\(run \`hookyard install\`\\): ${file} does not match hookyard.lock: expected sha512-\\S+ \\(from hookyard.lock\\), found sha512-\\S+;`,
      ),
    );
    expect(result.stdout).toMatch(/power-tool .*BROKEN/);
    expect(result.stdout).toMatch(
      /not in force\n {2}broken: hook "power-tool" could not be loaded \(run `hookyard install`\)/,
    );
    expect(result.stdout).toContain("doc-reader@1.4.2");
    const json = await list(root, "--json");
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { problems: unknown[] }).problems).toMatchObject([
      { name: "power-tool", code: "RUN_ERR_STORE_MISMATCH", file, message: expect.stringContaining(file) },
    ]);
  });
});
