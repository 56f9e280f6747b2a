import type { ProgressWriter } from "../wire/progress-file.js";
import type { FromSandbox, HookResult, WireAnswer } from "../wire/protocol.js";
import type { HookAnswer } from "../wire/types.js";

/**
 * One batch's answers, as the sandbox process reports them: all in one message when the batch
 * ends, and meanwhile each answer but the last in the batch's slot of the progress file, written
 * before the next hook starts. If the slot is full (or there is no file) the answers so far go
 * in a message of their own and the slot starts over.
 */
export class BatchReport {
  private readonly unsent: HookResult[] = [];
  private answered = 0;
  private offset = 0;

  constructor(
    private readonly r: number,
    private readonly slot: number,
    private readonly progress: ProgressWriter | undefined,
    private readonly send: (message: FromSandbox) => void,
  ) {}

  add(answer: HookAnswer, logs: readonly string[], last: boolean): void {
    const wire = wireAnswer(answer);
    const result: HookResult = logs.length > 0 ? { answer: wire, logs } : { answer: wire };
    this.unsent.push(result);
    const index = this.answered++;
    if (last) {
      this.flush(true);
      return;
    }
    const next = this.progress?.write(this.slot, this.offset, { r: this.r, index, at: Date.now(), result });
    if (next !== undefined) {
      this.offset = next;
      return;
    }
    this.flush(false);
    this.offset = 0;
  }

  private flush(last: boolean): void {
    this.send({ t: "answers", r: this.r, results: this.unsent.splice(0), last });
  }
}

/** The answer as it crosses: without the hook's id (the order of a batch's answers names them). */
function wireAnswer(answer: HookAnswer): WireAnswer {
  // To the microsecond: a float's last digits cost time to write and read, and say nothing.
  const ms = Math.round(answer.ms * 1000) / 1000;
  if (answer.status === "error") {
    return { status: "error", code: answer.code, message: answer.message, ms };
  }
  const { decision, ctx } = answer;
  return ctx === undefined ? { status: "ok", decision, ms } : { status: "ok", decision, ctx, ms };
}
