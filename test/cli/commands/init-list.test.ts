import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookyard } from "../../helpers/cli.js";
import { workspace } from "../../helpers/temp.js";

const auditOverride = `import { defineHook } from "hookyard";

interface Line { tool: string }

export default defineHook({
  name: "audit-log",
  priority: 5,
  on: {
    tool_before(ctx) {
      const line: Line = { tool: ctx.tool };
      void line;
    },
  },
});
`;

describe("hookyard init and list", () => {
  it("init then list in an empty directory shows the builtin audit-log", async () => {
    const dir = await workspace();
    const init = await hookyard(["init"], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("created hookyard.json");
    expect(JSON.parse(await readFile(join(dir, "hookyard.json"), "utf8"))).toEqual({ hooks: {}, rules: [] });

    const list = await hookyard(["list"], { cwd: dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /tool_before\n\s+1\.\s+audit-log\s+builtin\s+trusted\s+priority 100\s+inprocess\s+background/,
    );
  });

  it("a rules folder is listed at the points its rules use, not at every point it could reach", async () => {
    const dir = await workspace({
      ".hookyard/rules/no-rm.md":
        "---\nevent: bash\naction: block\npattern: rm -rf\n---\n\nNo rm -rf here.\n",
    });
    const list = await hookyard(["list", "--json"], { cwd: dir });
    expect(list.code, list.stderr).toBe(0);
    const { chains } = JSON.parse(list.stdout) as {
      chains: Array<{ point: string; hooks: Array<{ name: string }> }>;
    };
    const at = chains
      .filter((chain) => chain.hooks.some((hook) => hook.name === "rules"))
      .map((c) => c.point);
    expect(at).toEqual(["tool_before"]);
  });

  it("init twice changes nothing the second time", async () => {
    const dir = await workspace();
    await hookyard(["init"], { cwd: dir });
    const second = await hookyard(["init"], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("already a hookyard workspace");
  });

  it("a workspace audit-log.ts replaces the builtin of the same name", async () => {
    const dir = await workspace({ ".hookyard/hooks/audit-log.ts": auditOverride });
    const list = await hookyard(["list", "--json"], { cwd: dir });
    expect(list.code).toBe(0);
    const parsed = JSON.parse(list.stdout) as {
      chains: Array<{ point: string; hooks: Array<{ name: string; [field: string]: unknown }> }>;
    };
    const everywhere = parsed.chains.flatMap((c) => c.hooks.map((h) => ({ point: c.point, ...h })));
    expect(everywhere.filter((h) => h.name === "audit-log")).toEqual([
      expect.objectContaining({ point: "tool_before", origin: "workspace", priority: 5, mode: "sync" }),
    ]);
  });

  it("list shows chains in execution order and names a hook file that failed to load", async () => {
    const dir = await workspace({
      "hookyard.json": JSON.stringify({
        rules: [
          { name: "lint-gate", engine: "command", events: ["tool_before"], command: "true", priority: 20 },
        ],
      }),
      ".hookyard/hooks/guard.mjs":
        'export default { name: "guard", priority: 10, matcher: { tool: "^bash$" }, on: { tool_before() {} } };',
      ".hookyard/hooks/broken.ts": "export default defineHook({ name: ",
    });
    const list = await hookyard(["list"], { cwd: dir });
    expect(list.code).toBe(1);
    const chain = list.stdout.slice(list.stdout.indexOf("tool_before"));
    expect(chain.indexOf("guard")).toBeLessThan(chain.indexOf("lint-gate"));
    expect(chain.indexOf("lint-gate")).toBeLessThan(chain.indexOf("audit-log"));
    expect(chain).toContain("tool=^bash$");
    expect(list.stderr).toMatch(
      /RUN_ERR_HOOK_LOAD: hook "broken" \(.*broken\.ts\) could not be loaded and blocks/,
    );
    // It stands first in the chain, and the reason is shown with the file to fix.
    expect(chain.indexOf("broken")).toBeLessThan(chain.indexOf("guard"));
    expect(chain).toContain("BROKEN");
    expect(list.stdout).toMatch(
      /not in force\n {2}broken: hook "broken" could not be loaded \(fix .*broken\.ts\): /,
    );
  });
});
