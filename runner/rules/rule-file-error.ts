import type { RunnerErrorCode } from "../../core/errors.js";

/** What is wrong with one rule file, naming the field: that file is skipped, the other rules still apply. */
export class RuleFileError extends Error {
  override readonly name = "RuleFileError";
  constructor(
    readonly code: RunnerErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}
