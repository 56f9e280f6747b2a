import { type Kind, kinds } from "./kinds.js";

/**
 * The hook's settings, from hookyard.json `hooks.secret-redactor.config`:
 *
 *   minLength   shortest value behind a key/secret/token name that may be a credential (default 20)
 *   minEntropy  bits per character such a value needs (default 3.2; random base62 has about 4)
 *   skip        kinds to leave alone, such as ["jwt"] (default none)
 *
 * A setting that is not valid is ignored (the default applies) and named in `problems`, so a typo
 * never turns redaction off.
 */
export interface RedactorConfig {
  minLength: number;
  minEntropy: number;
  skip: ReadonlySet<Kind>;
  problems: string[];
}

const defaults = { minLength: 20, minEntropy: 3.2 };
const knownKeys = ["minLength", "minEntropy", "skip"];

export function readConfig(config: Readonly<Record<string, unknown>>): RedactorConfig {
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    if (!knownKeys.includes(key)) problems.push(`config.${key} is not a setting (${knownKeys.join(", ")})`);
  }
  const number = (key: "minLength" | "minEntropy", valid: (n: number) => boolean, rule: string) => {
    const value = config[key];
    if (value === undefined) return defaults[key];
    if (typeof value === "number" && valid(value)) return value;
    problems.push(`config.${key} must be ${rule}; using ${defaults[key]}`);
    return defaults[key];
  };
  return {
    minLength: number(
      "minLength",
      (n) => Number.isInteger(n) && n >= 8 && n <= 1024,
      "a whole number from 8 to 1024",
    ),
    minEntropy: number("minEntropy", (n) => n >= 0 && n <= 8, "a number of bits per character from 0 to 8"),
    skip: new Set(readSkip(config.skip, problems)),
    problems,
  };
}

function readSkip(value: unknown, problems: string[]): Kind[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`config.skip must be an array of kinds (${kinds.join(", ")}); nothing is skipped`);
    return [];
  }
  const skip: Kind[] = [];
  for (const entry of value) {
    if ((kinds as readonly unknown[]).includes(entry)) skip.push(entry as Kind);
    else
      problems.push(
        `config.skip: ${JSON.stringify(entry)} is not a kind (${kinds.join(", ")}); it was ignored`,
      );
  }
  return skip;
}
