import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeIssues, RunnerError } from "../../core/errors.js";
import { headerLine, type RunHeader, recordFileName, runIdPattern, type Step, stepLine } from "./record.js";

export interface RunRecord {
  file: string;
  header: RunHeader;
  /** Every complete step after the header, in order. */
  steps: Step[];
  /** The last step when the run finished; undefined when it stopped before (a crash, a kill). */
  finished: Extract<Step, { kind: "finished" }> | undefined;
  /** The file ended in half a line (a crash while writing it): that part is left out. */
  torn: boolean;
}

/** Reads the record of run `id`, up to its last complete line. */
export async function readRun(runsDir: string, id: string): Promise<RunRecord> {
  const file = join(runsDir, id, recordFileName);
  if (!runIdPattern.test(id)) throw notFound(id, runsDir);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw notFound(id, runsDir);
    throw error;
  }
  return parseRecord(text, file);
}

/** Every run in the folder, newest first; a damaged record is listed with its error, not skipped. */
export async function listRuns(
  runsDir: string,
): Promise<Array<{ id: string; record?: RunRecord; error?: RunnerError }>> {
  let names: string[];
  try {
    names = (await readdir(runsDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const runs = await Promise.all(
    names
      .filter((name) => runIdPattern.test(name))
      .map(async (id) => {
        try {
          return { id, record: await readRun(runsDir, id) };
        } catch (error) {
          if (error instanceof RunnerError) return { id, error };
          throw error;
        }
      }),
  );
  const started = (run: { record?: RunRecord }) => run.record?.header.startedAt ?? "";
  return runs.sort((a, b) =>
    started(a) < started(b) ? 1 : started(a) > started(b) ? -1 : a.id < b.id ? -1 : 1,
  );
}

export function parseRecord(text: string, file: string): RunRecord {
  const lines = text.split("\n");
  // What follows the last newline: empty for a whole file, else a line a crash cut off.
  const tail = lines.pop() ?? "";
  const torn = tail !== "";
  const corrupt = (line: number, why: string) =>
    new RunnerError("RUN_ERR_RUN_CORRUPT", `${file}, line ${line}: ${why}`);
  if (lines.length === 0) {
    throw new RunnerError(
      "RUN_ERR_RUN_CORRUPT",
      `${file} has no complete first line: the run stopped as it started, and nothing of it can be shown`,
    );
  }
  const values = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw corrupt(i + 1, "not JSON (the record was changed by something other than hookyard)");
    }
  });
  const header = headerLine.safeParse(values[0]);
  if (!header.success) throw corrupt(1, `not a run's first line (${describeIssues(header.error)})`);
  const steps: Step[] = [];
  let finished: RunRecord["finished"];
  for (let i = 1; i < values.length; i++) {
    const parsed = stepLine.safeParse(values[i]);
    if (!parsed.success) throw corrupt(i + 1, `not a step of a run (${describeIssues(parsed.error)})`);
    const step = parsed.data;
    if (step.seq !== i + 1)
      throw corrupt(i + 1, `step ${step.seq} where step ${i + 1} belongs (a step is missing)`);
    if (finished) throw corrupt(i + 1, "a step after the run's last one");
    if (step.kind === "finished") finished = step;
    steps.push(step);
  }
  if (header.data.seq !== 1) throw corrupt(1, "the first line is not step 1");
  return { file, header: header.data, steps, finished, torn };
}

function notFound(id: string, runsDir: string): RunnerError {
  return new RunnerError(
    "RUN_ERR_RUN_NOT_FOUND",
    `no run "${id}" in ${runsDir}; \`hookyard runs list\` shows the runs recorded there`,
  );
}
