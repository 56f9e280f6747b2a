import { RunnerError } from "../../core/errors.js";
import type { AgentEvent } from "../../runner/agent/loop.js";
import type { RunRecord } from "../../runner/runs/read-record.js";
import { runsFolder } from "../../runner/runs/record.js";
import { stoppedAt } from "../../runner/runs/stopped-at.js";
import { findWorkspaceRoot } from "../../workspace/root.js";

/** The runs folder of the workspace `cwd` is in. */
export async function workspaceRuns(cwd: string): Promise<string> {
  return runsFolder(await findWorkspaceRoot(cwd));
}

export async function readWorkspaceRun(cwd: string, id: string): Promise<RunRecord> {
  const { readRun } = await import("../../runner/runs/read-record.js");
  return readRun(await workspaceRuns(cwd), id);
}

/** The events a run showed, in order, as its record holds them. */
export function recordedEvents(record: RunRecord): AgentEvent[] {
  return record.steps.flatMap((step) => (step.kind === "event" ? [step.event as unknown as AgentEvent] : []));
}

/** The error an unfinished run is on replay: where it stopped, and the command that starts it again. */
export function unfinished(record: RunRecord): RunnerError {
  const id = record.header.id;
  const torn = record.torn ? "; its last line was cut off by the crash and is left out" : "";
  return new RunnerError(
    "RUN_ERR_RUN_UNFINISHED",
    `run ${id} did not finish: ${stoppedAt(record)}${torn}. \`hookyard run --resume ${id}\` runs its prompt again as a new run (agent_before fires again); what the run did before it stopped is not undone`,
  );
}

/** What `run` keeps in the record's first line so that `--resume` can start the same run again. */
export interface RunMeta {
  modelSpec?: string;
  baseUrl?: string;
  maxSteps?: number;
  ask?: string;
  invokedIn?: string;
  resumedFrom?: string;
}

export function runMeta(record: RunRecord): RunMeta {
  const meta = record.header.meta;
  const text = (key: string) => (typeof meta[key] === "string" ? (meta[key] as string) : undefined);
  const maxSteps = typeof meta.maxSteps === "number" ? meta.maxSteps : undefined;
  return {
    ...(text("modelSpec") ? { modelSpec: text("modelSpec") } : {}),
    ...(text("baseUrl") ? { baseUrl: text("baseUrl") } : {}),
    ...(maxSteps ? { maxSteps } : {}),
    ...(text("ask") ? { ask: text("ask") } : {}),
    ...(text("invokedIn") ? { invokedIn: text("invokedIn") } : {}),
    ...(text("resumedFrom") ? { resumedFrom: text("resumedFrom") } : {}),
  };
}
