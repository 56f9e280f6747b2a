import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Issue 3's acceptance: every attack test ends by checking that a real agent session still
 * answers (harness.ts `expectStillAnswers`, or agent-check.ts `agentSession` after a broker attack).
 * A new test file here is taken for an attack unless it is listed below, with the reason.
 */

const dir = fileURLToPath(new URL(".", import.meta.url));

const notAttacks: Record<string, string> = {
  "every-attack-checks-the-agent.test.ts": "this check",
  "agent-survives-hostile-community-hooks.test.ts":
    "runs each attack inside an agent session and checks it there",
  "ctx/batch-stops-where-the-caller-must-act.test.ts": "where a batch of well-behaved hooks stops",
  "ctx/ctx-change-detection.test.ts": "when a changed ctx copy comes back",
  "lifecycle/start-before-first-call.test.ts": "when the sandbox process starts and ends",
  "lifecycle/startup-checks.test.ts": "the options and flags a sandbox is made with",
  "limits/wall-timer-per-hook.test.ts": "a slow batch of hooks that each keep to their limits",
  "grants/grant-syntax.test.ts": "parsing grant strings; no hook runs",
  "grants/rewrite-grants.test.ts": "parsing rewrite and redact grants and rating them; no hook runs",
  "broker/audit-trail.test.ts": "what the audit log records",
};

const checksTheAgent = /\b(?:expectStillAnswers\(h\w*\)|agentSession\(\{)/;

async function testFiles(): Promise<string[]> {
  const files = await readdir(dir, { recursive: true });
  return files.filter((file) => file.endsWith(".test.ts")).sort();
}

describe("the adversarial suite under test/sandbox/", () => {
  it("ends every attack file's tests with an agent check", async () => {
    const unchecked: string[] = [];
    for (const file of await testFiles()) {
      if (file in notAttacks) continue;
      if (!checksTheAgent.test(await readFile(join(dir, file), "utf8"))) unchecked.push(file);
    }
    expect(unchecked, "attack files that never check the agent (or list them in notAttacks)").toEqual([]);
  });

  it("lists as not attacks only files that exist and do not check the agent", async () => {
    const files = await testFiles();
    for (const file of Object.keys(notAttacks)) {
      expect(files, file).toContain(file);
      expect(checksTheAgent.test(await readFile(join(dir, file), "utf8")), file).toBe(false);
    }
  });
});
