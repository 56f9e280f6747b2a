import { join } from "node:path";
import { errorText, RunnerError } from "../../core/errors.js";
import { AppendLog } from "../../workspace/append-log.js";
import { type RunHeader, recordFileName, recordFormat, runIdPattern, type StepEntry } from "./record.js";

export interface RecordStart {
  /** The runs folder (`runsFolder(root)`); the record goes to `<runsDir>/<id>/record.jsonl`. */
  runsDir: string;
  id: string;
  cwd: string;
  model: string;
  prompt: string;
  depth: number;
  meta?: Record<string, unknown>;
}

/**
 * Writes one run's record: an append-only file of numbered lines, each batch fsynced when the loop
 * reaches a step (`sync`), so a crash leaves the record whole up to its last completed step.
 */
export class RunRecorder {
  private seq = 0;

  private constructor(
    private readonly log: AppendLog,
    readonly file: string,
  ) {}

  static async start(start: RecordStart): Promise<RunRecorder> {
    if (!runIdPattern.test(start.id)) {
      throw new RunnerError(
        "RUN_ERR_RUN_RECORD",
        `cannot record run "${start.id}": an id is letters, digits, "-", "_" and "." only`,
      );
    }
    const file = join(start.runsDir, start.id, recordFileName);
    let log: AppendLog;
    try {
      log = await AppendLog.open(file, { exclusive: true });
    } catch (error) {
      const exists = (error as NodeJS.ErrnoException).code === "EEXIST";
      throw new RunnerError(
        "RUN_ERR_RUN_RECORD",
        exists
          ? `a run with id "${start.id}" is already recorded in ${file}; give the run another session id`
          : `cannot write the run's record ${file}: ${errorText(error)}`,
        { cause: error },
      );
    }
    const recorder = new RunRecorder(log, file);
    const header: Omit<RunHeader, "seq" | "at"> = {
      kind: "run",
      format: recordFormat,
      id: start.id,
      startedAt: new Date().toISOString(),
      cwd: start.cwd,
      model: start.model,
      prompt: start.prompt,
      depth: start.depth,
      meta: start.meta ?? {},
    };
    recorder.add(header);
    await recorder.sync();
    return recorder;
  }

  /** Queues one step; nothing is promised about it until the next `sync()`. */
  add(entry: StepEntry | Omit<RunHeader, "seq" | "at">): void {
    this.log.add(JSON.stringify({ seq: ++this.seq, at: new Date().toISOString(), ...entry }));
  }

  /** The end of a step: everything queued is on disk once this resolves. */
  async sync(): Promise<void> {
    try {
      await this.log.sync();
    } catch (error) {
      throw new RunnerError(
        "RUN_ERR_RUN_RECORD",
        `cannot write the run's record ${this.file}: ${errorText(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  async close(): Promise<void> {
    try {
      await this.log.close();
    } catch (error) {
      throw new RunnerError(
        "RUN_ERR_RUN_RECORD",
        `cannot write the run's record ${this.file}: ${errorText(error)}`,
        {
          cause: error,
        },
      );
    }
  }
}
