import type IsolatedVM from "isolated-vm-7";
import type { RunRequest } from "../wire/types.js";
import ivm from "./isolated-vm.js";

/**
 * What every hook of a batch is called with, prepared once per batch. The ctx's JSON leaves this
 * isolate once: each hook's isolate takes its copy from the same bytes (isolated-vm makes a string
 * of 1 KiB or more an external string over them). Passed as a plain argument, it was copied and
 * allocated again for every hook, and each isolate held its own copy until a full GC.
 */
export class BatchInput {
  readonly point: string;
  readonly ctxBytes: number;
  readonly outcomeJson: string;
  private readonly ctx: IsolatedVM.ExternalCopy<string>;

  constructor(request: RunRequest) {
    this.point = request.point;
    this.ctxBytes = Buffer.byteLength(request.ctxJson);
    this.outcomeJson = request.outcome ? JSON.stringify(request.outcome) : "";
    this.ctx = new ivm.ExternalCopy(request.ctxJson);
  }

  /** The ctx's JSON, for one call's arguments: it becomes a string in the isolate the call enters. */
  ctxJson(): IsolatedVM.Copy<string> {
    return this.ctx.copyInto();
  }

  /** Once the batch is over; copies already taken are not affected. */
  release(): void {
    this.ctx.release();
  }
}
