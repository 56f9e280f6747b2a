import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";
import {
  agentsDocPath,
  inRepo,
  lastRunPath,
  mergeRun,
  type RanTest,
  readLastRun,
  renderDoc,
} from "./support-record.js";
import type { AgentId } from "./support-table.js";

/**
 * After a run that included the real agents (test/agents/), records which of their tests passed
 * (test/agents/last-run.json) and writes docs/agents/README.md's tables from that record, so the tables
 * say what the last run proved. A run in which they were skipped (no registry,
 * HOOKYARD_AGENT_CONFORMANCE=skip) changes nothing. Files are written only when their text changes.
 */
export default class AgentSupportReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const ran: RanTest[] = [];
    const incomplete = new Set<AgentId>();
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const support = test.meta().agentSupport;
        if (!support) continue;
        const state = test.result().state;
        if (state !== "passed" && state !== "failed") {
          incomplete.add(support.agent);
          continue;
        }
        ran.push({ ...support, name: test.name, passed: state === "passed" });
      }
    }
    if (ran.length === 0) return;
    const complete = new Set(ran.map((t) => t.agent).filter((a) => !incomplete.has(a)));
    const record = mergeRun(readLastRun(inRepo(lastRunPath)), ran, complete, process.versions.node);
    writeIfChanged(inRepo(lastRunPath), `${JSON.stringify(record, null, 2)}\n`);
    const doc = inRepo(agentsDocPath);
    writeIfChanged(doc, renderDoc(readFileSync(doc, "utf8"), record));
  }
}

function writeIfChanged(path: string, text: string): void {
  let before = "";
  try {
    before = readFileSync(path, "utf8");
  } catch {}
  if (before === text) return;
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}
