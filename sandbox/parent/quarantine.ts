import { isolateFailureCodes } from "../errors.js";
import type { HookAnswer } from "../wire/types.js";

/**
 * Counts each hook's isolate failures (timeouts, memory, a crashed sandbox process) this session;
 * at the limit the hook is quarantined and the user told, once. A hook's own throw does not count:
 * it is an ordinary failure that its onError setting handles.
 */
export class Quarantine {
  readonly ids = new Set<string>();
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly after: number,
    private readonly onQuarantine: (id: string, message: string) => void,
  ) {}

  record(answer: HookAnswer, name: string): void {
    if (answer.status !== "error" || !isolateFailureCodes.has(answer.code) || this.ids.has(answer.hook))
      return;
    const count = (this.failures.get(answer.hook) ?? 0) + 1;
    this.failures.set(answer.hook, count);
    if (count < this.after) return;
    this.ids.add(answer.hook);
    this.onQuarantine(
      answer.hook,
      `hook "${name}" was quarantined for this session after ${count} isolate failures (the last: ${answer.message}); it will not run again until hookyard restarts`,
    );
  }

  answer(id: string, name: string): HookAnswer {
    return {
      hook: id,
      status: "error",
      code: "SANDBOX_ERR_QUARANTINED",
      message: `hook "${name}" is quarantined for this session after ${this.after} isolate failures`,
      ms: 0,
    };
  }
}
