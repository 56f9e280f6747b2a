import type { Logger } from "../../runner/logger.js";

export interface RecordingLogger extends Logger {
  readonly infos: string[];
  readonly warnings: string[];
  readonly errors: string[];
}

/** A logger that keeps every message by level, so a test can check what a user would read on stderr. */
export function recordingLogger(): RecordingLogger {
  const infos: string[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    infos,
    warnings,
    errors,
    info: (m) => void infos.push(m),
    warn: (m) => void warnings.push(m),
    error: (m) => void errors.push(m),
  };
}
