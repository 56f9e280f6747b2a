/** Where hook failures, dropped effects and hook logs go. Every entry names its hook (and point). */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** What only someone debugging wants (an agent hook skipped in a sub-agent); optional. */
  debug?(message: string): void;
}

export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`hookyard: ${message}\n`),
  warn: (message) => process.stderr.write(`hookyard: warning: ${message}\n`),
  error: (message) => process.stderr.write(`hookyard: error: ${message}\n`),
};
