import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { hookyard } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

async function demoDirs(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith("hookyard-demo-"));
}

describe("hookyard demo", () => {
  it("tells the whole story offline and leaves no temp dir", async () => {
    const cwd = await tempDir();
    const home = await tempDir();
    // Its own temp folder: a suite running alongside makes and removes demo folders of its own.
    const tmp = await tempDir();
    const result = await hookyard(["demo"], {
      cwd,
      env: { HOME: home, HOOKYARD_CONFIG: `${home}/config.json`, TMPDIR: tmp },
    });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    // rm -rf ~ blocked by the guard, and the model is told why.
    expect(out).toMatch(/⚑ block at tool_before by dangerous-command-guard \(community, sandboxed\)/);
    expect(out).toContain('Blocked by hook "dangerous-command-guard"');
    // The fake AWS key never reaches the transcript: the model saw it redacted.
    expect(out).not.toContain("AKIAIOSFODNN7EXAMPLE");
    expect(out).toMatch(/\[redacted:[a-z-]+\]/);
    expect(out).toMatch(/⚑ rewrite at tool_after by secret-redactor \(community, sandboxed\)/);
    // Steering: the Testing section injected into the next request.
    expect(out).toMatch(/⚑ inject at llm_before by steering-injector \(community, sandboxed\)[^\n]*Testing/);
    // The long bash command got a timeout.
    expect(out).toMatch(/bash runs with arguments changed by hooks: \{[^}]*"timeout":30/);
    // The todo list persisted, and the next session starts with it.
    expect(out).toMatch(
      /todo list persisted in \.hookyard\/state\/todo-state\.json: .*add a table-driven test/,
    );
    expect(out).toMatch(
      /⚑ inject at turn_before by todo-state \(community, sandboxed\)[^\n]*rotate the AWS key/,
    );
    // The summary table has every sample with its time per call.
    for (const name of [
      "dangerous-command-guard",
      "secret-redactor",
      "bash-timeout",
      "steering-injector",
      "todo-state",
    ]) {
      expect(out).toMatch(new RegExp(`${name}\\s+community, sandboxed\\s+\\d+ calls?\\s+[\\d.]+ ms/call`));
    }
    expect(out).toMatch(/audit-webhook delivered [1-9]\d* tool-call records/);
    const temp = /Everything happens in (\S+),/.exec(out)?.[1];
    expect(temp?.startsWith(tmp)).toBe(true);
    expect(temp && existsSync(temp)).toBe(false);
    expect(await demoDirs(tmp)).toEqual([]);
  });
});
