import { cp } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp.js";
import { startRegistry } from "../registry/helpers.js";

/** Issue 7: what each sample may be granted at most, and the effects it declares. */
const expected: Record<string, { capabilities: string[]; effects: string[] }> = {
  "dangerous-command-guard": { capabilities: [], effects: ["ask", "block"] },
  "secret-redactor": {
    capabilities: ["redact:llm_after.response.content", "redact:tool_after.result"],
    effects: ["rewrite"],
  },
  "bash-timeout": { capabilities: ["rewrite:tool_before.args.timeout"], effects: ["rewrite"] },
  "steering-injector": { capabilities: ["fs.read:docs/conventions.md"], effects: ["inject"] },
  "audit-webhook": { capabilities: ["net:127.0.0.1"], effects: [] },
  "todo-state": { capabilities: [], effects: ["inject"] },
};

describe("sample-hooks: each packs, publishes, and `hookyard info` shows exactly the capabilities it needs", () => {
  it("all six", { timeout: 120_000 }, async () => {
    const registry = await startRegistry();
    const home = await tempDir();
    const env = { HOOKYARD_CONFIG: join(home, "config.json"), HOOKYARD_TOKEN: registry.admin };
    for (const [name, want] of Object.entries(expected)) {
      // A copy: pack writes the bundle into the package folder.
      const dir = join(await tempDir(), name);
      await cp(join(repoRoot, "sample-hooks", name), dir, { recursive: true });
      const published = await runCli(["publish", "--registry", registry.url, "--json"], { cwd: dir, env });
      expect(published.code, published.stderr).toBe(0);
      const info = await runCli(["info", name, "--registry", registry.url, "--json"], { cwd: home, env });
      expect(info.code, info.stderr).toBe(0);
      const shown = JSON.parse(info.stdout);
      expect(shown.capabilities.lines.map((line: { grant: string }) => line.grant).sort(), name).toEqual(
        want.capabilities,
      );
      expect(shown.effects.map((e: { effect: string }) => e.effect).sort(), name).toEqual(want.effects);
    }
  });
});
