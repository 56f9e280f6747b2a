import type { Logger } from "../runner/logger.js";
import { stderrLogger } from "../runner/logger.js";

/** For commands that report load problems themselves: keeps warnings and hook errors, drops load errors. */
export function quietLogger(): Logger {
  return { info: stderrLogger.info, warn: stderrLogger.warn, error: () => {} };
}
