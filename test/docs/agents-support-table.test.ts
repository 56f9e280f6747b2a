import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { claudeCodePackage } from "../../bench/agents/claude-code.js";
import { codexPackage } from "../agents/harness/codex.js";
import { geminiCliPackage } from "../agents/harness/gemini-cli.js";
import { opencodePackage } from "../agents/harness/opencode.js";
import { piPackage } from "../agents/harness/pi.js";
import {
  agentsDocPath,
  inRepo,
  lastRunPath,
  mergeRun,
  type RanTest,
  readLastRun,
  renderDoc,
  renderTable,
} from "../agents/harness/support-record.js";
import { type AgentId, proves, supportTable, supportTables } from "../agents/harness/support-table.js";

/** The version each suite installs: a table is stale once its pin moves. */
const pinned: Record<AgentId, string> = {
  "claude-code": claudeCodePackage.version,
  codex: codexPackage.version,
  "gemini-cli": geminiCliPackage.version,
  opencode: opencodePackage.version,
  pi: piPackage.version,
};

/**
 * docs/agents/README.md's tables are what the last run of the real agents' tests proved
 * (test/agents/harness/support-reporter.ts writes them): no cell is edited by hand, and the
 * committed record is of a run in which every test passed.
 */
describe("docs/agents/README.md's support tables", () => {
  const record = readLastRun(inRepo(lastRunPath));
  const doc = readFileSync(inRepo(agentsDocPath), "utf8");

  it("are written from test/agents/last-run.json, word for word", () => {
    expect(doc).toBe(renderDoc(doc, record));
  });

  for (const table of supportTables) {
    it(`come from a run of ${table.testFile} in which every test passed and every test still exists`, () => {
      const run = record[table.agent];
      expect(run, `${table.agent} has not run: run npx vitest run ${table.testFile}`).toBeDefined();
      expect(run?.version, `the table is of another version than the pin: run ${table.testFile}`).toBe(
        pinned[table.agent],
      );
      const source = readFileSync(inRepo(table.testFile), "utf8");
      for (const [name, outcome] of Object.entries(run?.tests ?? {})) {
        expect(outcome.passed, `${name} failed in the last run`).toBe(true);
        expect(source.includes(name), `no test named ${name} in ${table.testFile}`).toBe(true);
      }
    });
  }
});

describe("the record behind the tables", () => {
  const table = supportTable("gemini-cli");
  const ran = (name: string, passed: boolean, ...rows: string[]): RanTest => ({
    ...proves("gemini-cli", "1.0.0", { exec: rows }).agentSupport,
    name,
    passed,
  });
  const cell = (text: string, row: string) =>
    text.split("\n").find((line) => line.startsWith(`| ${table.rows.find((r) => r.id === row)?.text}`));

  it("says yes only for a cell a passing test proved; a failing one says fails, an unproved one not run", () => {
    const record = mergeRun(
      {},
      [ran("denies", true, "deny"), ran("blocks the prompt", false, "prompt-block", "deny")],
      new Set(["gemini-cli"]),
      "24.0.0",
    );
    const text = renderTable(table, record["gemini-cli"]);
    expect(cell(text, "deny")).toMatch(/\| \*\*fails\*\* +\|$/);
    expect(cell(text, "prompt-block")).toMatch(/\| \*\*fails\*\* +\|$/);
    expect(cell(text, "allow")).toMatch(/\| not run +\|$/);
    expect(text).toContain("Gemini CLI 1.0.0, Node 24.0.0): 1 of 2 tests passed.");
  });

  it("keeps the other tests' outcomes after a filtered run, and drops a renamed test after a whole one", () => {
    const first = mergeRun({}, [ran("old name", true, "allow")], new Set(["gemini-cli"]), "24.0.0");
    const filtered = mergeRun(first, [ran("denies", true, "deny")], new Set(), "24.0.0");
    expect(Object.keys(filtered["gemini-cli"]?.tests ?? {})).toEqual(["denies", "old name"]);
    const whole = mergeRun(filtered, [ran("denies", true, "deny")], new Set(["gemini-cli"]), "24.0.0");
    expect(Object.keys(whole["gemini-cli"]?.tests ?? {})).toEqual(["denies"]);
  });

  it("refuses a cell of a row or column the table does not have", () => {
    expect(() => proves("codex", "1", { exec: ["no-such-row"] })).toThrow(/codex has no row no-such-row/);
    expect(() => proves("codex", "1", { http: ["deny"] })).toThrow(/codex has no column http/);
  });
});
