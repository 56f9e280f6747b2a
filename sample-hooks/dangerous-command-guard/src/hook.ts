import { defineHook } from "hookyard";
import { readConfig } from "./config.js";
import { type Finding, findDangers } from "./dangers.js";
import { NestingTooDeep } from "./shell-syntax.js";

/** Config problems already logged: once per session is enough to be seen, every call would drown stderr. */
const reported = new Set<string>();

// Priority, matcher (bash only) and onError ("block": a guard that crashes must not wave commands
// through) are in package.json, where the runner reads them.
export default defineHook({
  name: "dangerous-command-guard",
  description: "Refuses bash commands that destroy the machine, the home folder or shared git history",
  on: {
    tool_before(ctx, api) {
      const commandLine = ctx.args.command;
      // Not a string: the bash tool itself refuses the call.
      if (typeof commandLine !== "string") return undefined;
      const config = readConfig(api.config);
      for (const problem of config.problems) {
        if (!reported.has(problem)) api.log(problem);
        reported.add(problem);
      }
      if (config.allow.some((allowed) => allowed(commandLine.trim()))) return undefined;
      let findings: Finding[];
      try {
        findings = findDangers(commandLine, { protectedBranches: config.protectedBranches });
      } catch (error) {
        if (!(error instanceof NestingTooDeep)) throw error;
        return {
          block: "The command nests substitutions or shells too deeply to be checked, so it was not run.",
        };
      }
      const blocks = findings.filter((f) => f.verdict === "block");
      if (blocks.length > 0) {
        return {
          block: `${explain(blocks)} It was not run; if the user really wants it, they can run it themselves.`,
        };
      }
      if (findings.length > 0) return { ask: explain(findings) };
      return undefined;
    },
  },
});

/** For the model: what was refused and why, so it can choose a safer command. */
function explain(findings: Finding[]): string {
  const lines = findings.map((f) => `${f.what}: ${f.harm}.`);
  return [...new Set(lines)].join(" ");
}
