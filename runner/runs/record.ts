import { join } from "node:path";
import * as z from "zod";

/** Where a workspace keeps its runs: one folder per run, named by its id (the session id). */
export function runsFolder(root: string): string {
  return join(root, ".hookyard", "runs");
}

export const recordFileName = "record.jsonl";

/** Ids are made by the loop (UUIDs) or passed by a library user: letters, digits, `-`, `_`, `.` only, so an id is never a path. */
export const runIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export const recordFormat = 1;

const json = z.record(z.string(), z.unknown());

/** The first line: what the run was started with. `meta` is the caller's (the CLI keeps what `--resume` needs). */
const runEntry = z.object({
  kind: z.literal("run"),
  format: z.literal(recordFormat),
  id: z.string(),
  startedAt: z.string(),
  cwd: z.string(),
  model: z.string(),
  prompt: z.string(),
  depth: z.number(),
  meta: json,
});

/** What the loop showed: replay prints these through the same transcript writer. */
const eventEntry = z.object({ kind: z.literal("event"), event: z.object({ type: z.string() }).loose() });

/** One point's chain: the verdict and what each hook that ran decided. */
const chainEntry = z.object({
  kind: z.literal("chain"),
  point: z.string(),
  verdict: z.string(),
  runs: z.array(
    z.object({ hook: z.string(), status: z.string(), effects: z.array(z.string()), ms: z.number() }),
  ),
  blockedBy: z.object({ hook: z.string(), reason: z.string() }).optional(),
});

/** The request exactly as the model got it (injects included), and its answer. */
const modelRequestEntry = z.object({ kind: z.literal("model_request"), call: z.number(), request: json });
const modelResponseEntry = z.object({ kind: z.literal("model_response"), call: z.number(), result: json });

/** A tool about to run with these (possibly rewritten) arguments, and what it returned before tool_after. */
const toolStartEntry = z.object({
  kind: z.literal("tool_start"),
  callId: z.string(),
  tool: z.string(),
  args: json,
});
const toolOutputEntry = z.object({
  kind: z.literal("tool_output"),
  callId: z.string(),
  ok: z.boolean(),
  text: z.string(),
});

/**
 * A hook's state write, once it is on disk: its revision (the store's count of that hook's writes)
 * and the sha256 of the state file it wrote, so the file can be checked against its last receipt.
 */
const stateWriteEntry = z.object({
  kind: z.literal("state_write"),
  hook: z.string(),
  key: z.string(),
  deleted: z.boolean(),
  revision: z.number(),
  sha256: z.string(),
});

const finishedEntry = z.object({ kind: z.literal("finished"), reason: z.string(), stats: json });

const stepEntry = z.discriminatedUnion("kind", [
  eventEntry,
  chainEntry,
  modelRequestEntry,
  modelResponseEntry,
  toolStartEntry,
  toolOutputEntry,
  stateWriteEntry,
  finishedEntry,
]);

/** Every line carries its place (`seq`, from 1, with no gap) and its time. */
const stamp = z.object({ seq: z.number().int().positive(), at: z.string() });
export const headerLine = runEntry.extend(stamp.shape);
export const stepLine = z.intersection(stepEntry, stamp);

export type RunHeader = z.infer<typeof headerLine>;
export type StepEntry = z.infer<typeof stepEntry>;
export type Step = z.infer<typeof stepLine>;
export type StateReceipt = z.infer<typeof stateWriteEntry>;
