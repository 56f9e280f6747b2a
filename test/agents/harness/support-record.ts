import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentId, ProvenCell, SupportTable } from "./support-table.js";
import { supportTables } from "./support-table.js";

/** test/agents/last-run.json: per agent, the tests of its last run and the cells each proves. */
export type LastRun = Partial<Record<AgentId, AgentRun>>;

export interface AgentRun {
  readonly version: string;
  readonly node: string;
  readonly tests: Readonly<Record<string, TestOutcome>>;
}

export interface TestOutcome {
  readonly passed: boolean;
  readonly cells: readonly ProvenCell[];
}

/** One test of an agent suite that ran (passed or failed) in this run. */
export interface RanTest extends TestOutcome {
  readonly agent: AgentId;
  readonly version: string;
  readonly name: string;
}

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const lastRunPath = "test/agents/last-run.json";
export const agentsDocPath = "docs/agents/README.md";
/** A path of the two above, from the repository's root whatever the working directory. */
export const inRepo = (path: string): string => join(repoRoot, path);

export function readLastRun(path: string): LastRun {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LastRun;
  } catch {
    return {};
  }
}

/**
 * The record after this run: an agent whose every test ran is replaced whole (so a renamed test
 * leaves no stale entry); one whose run was filtered keeps its other tests' last outcomes.
 */
export function mergeRun(
  previous: LastRun,
  ran: readonly RanTest[],
  complete: ReadonlySet<AgentId>,
  node: string,
): LastRun {
  const next: LastRun = { ...previous };
  for (const agent of new Set(ran.map((t) => t.agent))) {
    const mine = ran.filter((t) => t.agent === agent);
    const kept = complete.has(agent) ? {} : (previous[agent]?.tests ?? {});
    const tests: Record<string, TestOutcome> = { ...kept };
    for (const t of mine) tests[t.name] = { passed: t.passed, cells: t.cells };
    next[agent] = { version: mine[0]?.version ?? "", node, tests: sortKeys(tests) };
  }
  return next;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** What a cell says: the proving tests' word if all passed, **fails** if one failed, else the row's default. */
function cellText(table: SupportTable, run: AgentRun | undefined, row: string, column: string): string {
  const proofs = Object.values(run?.tests ?? {}).flatMap((t) =>
    t.cells.filter((c) => c.row === row && c.column === column).map((c) => ({ ...c, passed: t.passed })),
  );
  if (proofs.some((p) => !p.passed)) return "**fails**";
  if (proofs.length > 0) return proofs[0]?.value ?? "yes";
  return table.rows.find((r) => r.id === row)?.otherwise?.[column] ?? "not run";
}

/** A markdown table laid out as the formatter lays it out (every column padded to its widest cell). */
function markdownTable(lines: readonly (readonly string[])[]): string {
  const widths = lines[0]?.map((_, i) => Math.max(3, ...lines.map((l) => (l[i] ?? "").length))) ?? [];
  const row = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  const [header, ...body] = lines;
  return [row(header ?? []), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...body.map(row)].join(
    "\n",
  );
}

export function renderTable(table: SupportTable, run: AgentRun | undefined): string {
  const lines = [
    ["behaviour (what the test checks)", ...table.columns.map((c) => c.header)],
    ...table.rows.map((r) => [r.text, ...table.columns.map((c) => cellText(table, run, r.id, c.id))]),
  ];
  const tests = Object.values(run?.tests ?? {});
  const said = run
    ? `From the last run of \`${table.testFile}\` (${table.name} ${run.version}, Node ${run.node}): ${tests.filter((t) => t.passed).length} of ${tests.length} tests passed.`
    : `\`${table.testFile}\` has not run yet.`;
  return `${markdownTable(lines)}\n\n${said}`;
}

const begin = (agent: AgentId) =>
  `<!-- ${agent}: written by test/agents/harness/support-reporter.ts from ${lastRunPath}; do not edit -->`;
const end = (agent: AgentId) => `<!-- end of ${agent} -->`;

/** docs/agents/README.md with each agent's block written from the record. */
export function renderDoc(doc: string, lastRun: LastRun): string {
  let out = doc;
  for (const table of supportTables) {
    const from = out.indexOf(begin(table.agent));
    const to = out.indexOf(end(table.agent));
    if (from < 0 || to < from) throw new Error(`${agentsDocPath} has no block for ${table.agent}`);
    const block = `${begin(table.agent)}\n\n${renderTable(table, lastRun[table.agent])}\n\n`;
    out = out.slice(0, from) + block + out.slice(to);
  }
  return out;
}
