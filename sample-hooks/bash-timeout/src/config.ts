/**
 * The hook's settings, from hookyard.json `hooks.bash-timeout.config`:
 *
 *   seconds  the timeout given to a bash call that has none (default 60)
 *   max      the longest timeout any bash call may have (default none)
 *
 * Both are seconds, above 0 and at most 3600 (what the bash tool accepts). A setting that is not
 * valid is ignored (the default applies) and named in `problems`: bash calls still get a timeout.
 */
export interface TimeoutConfig {
  seconds: number;
  max: number | undefined;
  problems: string[];
}

const defaultSeconds = 60;
/** The bash tool refuses a longer timeout. */
const toolLimit = 3600;
const knownKeys = ["seconds", "max"];

const valid = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 && value <= toolLimit;

export function readConfig(config: Readonly<Record<string, unknown>>): TimeoutConfig {
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    if (!knownKeys.includes(key)) problems.push(`config.${key} is not a setting (${knownKeys.join(", ")})`);
  }
  let seconds = defaultSeconds;
  if (valid(config.seconds)) seconds = config.seconds;
  else if (config.seconds !== undefined) {
    problems.push(
      `config.seconds must be a number of seconds above 0, at most ${toolLimit}; using ${defaultSeconds}`,
    );
  }
  let max: number | undefined;
  if (valid(config.max)) max = config.max;
  else if (config.max !== undefined) {
    problems.push(
      `config.max must be a number of seconds above 0, at most ${toolLimit}; no maximum is applied`,
    );
  }
  return { seconds: max === undefined ? seconds : Math.min(seconds, max), max, problems };
}
