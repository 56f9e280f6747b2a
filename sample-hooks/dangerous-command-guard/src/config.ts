/**
 * The hook's settings, from hookyard.json `hooks.dangerous-command-guard.config`:
 *
 *   allow              commands to let through: an exact command line, or a "/regex/flags" string
 *   protectedBranches  branches a force push may not rewrite (default main and master)
 *
 * A setting that is not valid is ignored (the default applies) and named in `problems`: a typo must
 * never let more through than the user meant, and must never switch the guard off.
 */
export interface GuardConfig {
  allow: Array<(commandLine: string) => boolean>;
  protectedBranches: ReadonlySet<string>;
  problems: string[];
}

const defaultProtectedBranches = ["main", "master"];
const knownKeys = ["allow", "protectedBranches"];

export function readConfig(config: Readonly<Record<string, unknown>>): GuardConfig {
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    if (!knownKeys.includes(key)) problems.push(`config.${key} is not a setting (${knownKeys.join(", ")})`);
  }
  return {
    allow: readAllow(config.allow, problems),
    protectedBranches: new Set(readBranches(config.protectedBranches, problems)),
    problems,
  };
}

function readAllow(value: unknown, problems: string[]): GuardConfig["allow"] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push("config.allow must be an array of commands or /regex/ strings; it was ignored");
    return [];
  }
  const allow: GuardConfig["allow"] = [];
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== "string" || entry.trim() === "") {
      problems.push(`config.allow[${index}] must be a non-empty string; it was ignored`);
      continue;
    }
    const regex = /^\/(.+)\/([a-z]*)$/s.exec(entry);
    if (!regex) {
      const exact = entry.trim();
      allow.push((commandLine) => commandLine === exact);
      continue;
    }
    try {
      // Without g and y: a regex that keeps lastIndex would answer differently on every call.
      const pattern = new RegExp(regex[1] ?? "", (regex[2] ?? "").replace(/[gy]/g, ""));
      allow.push((commandLine) => pattern.test(commandLine));
    } catch (error) {
      problems.push(
        `config.allow[${index}] ${entry} is not a valid regular expression (${(error as Error).message}); it was ignored`,
      );
    }
  }
  return allow;
}

function readBranches(value: unknown, problems: string[]): string[] {
  if (value === undefined) return defaultProtectedBranches;
  if (Array.isArray(value) && value.every((b) => typeof b === "string" && b !== "")) return value;
  problems.push(
    `config.protectedBranches must be an array of branch names; using ${defaultProtectedBranches.join(", ")}`,
  );
  return defaultProtectedBranches;
}
