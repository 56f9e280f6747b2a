import type { RunRecord } from "./read-record.js";
import type { Step } from "./record.js";

/** Where an unfinished run stopped, in words: its last complete step and what was under way. */
export function stoppedAt(record: RunRecord): string {
  const last = record.steps.at(-1);
  const count = record.steps.length + 1;
  if (!last) return `it stopped after step 1 (the run had started; nothing else was recorded)`;
  const under = underWay(record.steps);
  return `it stopped after step ${count} (${describe(last)})${under ? `, ${under}` : ""}`;
}

/** A model call or a tool that started and has no result in the record. */
function underWay(steps: Step[]): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i] as Step;
    if (step.kind === "model_response" || step.kind === "tool_output") return undefined;
    if (step.kind === "model_request") return `while waiting for the answer to model call ${step.call}`;
    if (step.kind === "tool_start") return `while tool ${step.tool} (${step.callId}) was running`;
  }
  return undefined;
}

export function describe(step: Step): string {
  switch (step.kind) {
    case "event":
      return `event ${step.event.type}`;
    case "chain":
      return `the ${step.point} chain, verdict ${step.verdict}`;
    case "model_request":
      return `model call ${step.call} sent`;
    case "model_response":
      return `model call ${step.call} answered`;
    case "tool_start":
      return `tool ${step.tool} (${step.callId}) started`;
    case "tool_output":
      return `tool ${step.callId} ${step.ok ? "returned" : "failed"}`;
    case "state_write":
      return `state "${step.key}" of hook "${step.hook}" written, revision ${step.revision}`;
    case "finished":
      return `finished: ${step.reason}`;
  }
}
