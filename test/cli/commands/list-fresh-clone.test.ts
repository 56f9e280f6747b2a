import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installFixture } from "../../helpers/lock-fixture.js";
import { runCli } from "../../helpers/run-cli.js";
import { workspace } from "../../helpers/temp.js";

const guard = (name: string) => ({
  name,
  source: `export default { on: { tool_before() { return undefined; } } };`,
  hookyard: { events: ["tool_before"] },
});

describe("hookyard list in a fresh clone (hookyard.lock, no store)", () => {
  it("says in one line which hooks are missing and the one command that fetches them", async () => {
    const root = await workspace();
    await installFixture(root, [guard("alpha"), guard("beta"), guard("gamma")]);
    await rm(join(root, ".hookyard", "store"), { recursive: true });
    const result = await runCli(["list"], { cwd: root, env: { HOOKYARD_CONFIG: join(root, "none.json") } });
    expect(result.code).toBe(1);
    const line = "3 hooks in hookyard.lock are not in the store (alpha, beta, gamma): run `hookyard install`";
    expect(result.stderr).toBe(
      `hookyard: error: RUN_ERR_NOT_INSTALLED: ${line}; until then they block at turn_before, tool_before\n`,
    );
    expect(result.stdout).toContain(`\nnot in force\n  not installed: ${line}\n`);
    // No store path, no hash: one short line each, however many hooks.
    expect(result.stdout.split("\n").every((row) => row.length < 200)).toBe(true);
    // Still fail closed: each stands in, blocking its points.
    expect(result.stdout).toMatch(/^ {2}1\. +alpha +community +sandboxed +first +BROKEN: blocks every call/m);
  });
});
