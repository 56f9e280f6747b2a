import { describe, expect, it } from "vitest";
import { toolBefore, turnAfter, turnBefore } from "../../../helpers/ctx.js";
import { claudeHook, fixture, noPython, workspaceWith } from "./command-profile-helpers.js";

const python = (script: string) => `python3 ${fixture(script)}`;
const skipReason = noPython ? ` (skipped: ${noPython})` : "";

describe.skipIf(noPython !== undefined)(
  `python hooks written for that agent run unchanged${skipReason}`,
  () => {
    it("exit 2 blocks the tool call, with the script's stderr as the reason", async () => {
      const { hooks } = await workspaceWith([
        claudeHook("validator", python("bash_validator.py"), ["tool_before"]),
      ]);
      const outcome = await hooks.dispatch(
        "tool_before",
        toolBefore({ args: { command: "grep -n TODO src/app.ts" } }),
      );
      expect(outcome.verdict).toBe("block");
      expect(outcome.blockedBy).toEqual({
        hook: "validator",
        reason: "- Use 'rg' (ripgrep) instead of 'grep': it is faster and respects .gitignore",
      });
    });

    it("exit 0 lets the call run untouched", async () => {
      const { hooks } = await workspaceWith([
        claudeHook("validator", python("bash_validator.py"), ["tool_before"]),
      ]);
      const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls -la" } }));
      expect(outcome.verdict).toBe("allow");
      expect(outcome.ctx.args).toEqual({ command: "ls -la" });
      expect(outcome.warnings).toEqual([]);
    });

    it("permissionDecision deny blocks with its reason, and systemMessage reaches the user as a notice", async () => {
      const { root, hooks } = await workspaceWith([
        claudeHook("env-files", python("protect_env_files.py"), ["tool_before"], {
          matcher: "Read|Write|Edit",
        }),
      ]);
      const outcome = await hooks.dispatch(
        "tool_before",
        toolBefore({ tool: "read_file", args: { path: ".env" } }),
      );
      expect(outcome.verdict).toBe("block");
      // The script saw that agent's absolute file_path, built from our relative path.
      expect(outcome.blockedBy?.reason).toBe(`${root}/.env holds secrets; read .env.example instead`);
      expect(outcome.notices).toEqual([{ hook: "env-files", text: "a .env file was protected" }]);
    });

    it("updatedInput rewrites the tool's args, and additionalContext goes to the model", async () => {
      const { hooks } = await workspaceWith([
        claudeHook("dry-run", python("dry_run_pushes.py"), ["tool_before"]),
      ]);
      const outcome = await hooks.dispatch(
        "tool_before",
        toolBefore({ args: { command: "git push origin main", timeout: 60 } }),
      );
      expect(outcome.verdict).toBe("allow");
      expect(outcome.ctx.args).toEqual({ command: "git push --dry-run origin main", timeout: 60 });
      expect(outcome.injects).toEqual([{ hook: "dry-run", text: "pushes run as --dry-run in this project" }]);
    });

    it("a script that crashes (exit 1, a traceback) is a non-blocking error: the call goes on, the failure is logged", async () => {
      const { hooks, logger } = await workspaceWith([
        claudeHook("broken", python("broken_hook.py"), ["tool_before"]),
      ]);
      const outcome = await hooks.dispatch("tool_before", toolBefore());
      expect(outcome.verdict).toBe("allow");
      expect(outcome.warnings).toMatchObject([{ hook: "broken", code: "RUN_ERR_COMMAND_FAILED" }]);
      expect(outcome.warnings[0]?.message).toMatch(/exited with code 1: .*KeyError: 'no_such_field'/s);
      expect(logger.errors.join("\n")).toContain('hook "broken" (workspace) at tool_before failed');
    });

    it("the same crash blocks when the hook says onError: block", async () => {
      const { hooks } = await workspaceWith([
        claudeHook("broken", python("broken_hook.py"), ["tool_before"], { onError: "block" }),
      ]);
      const outcome = await hooks.dispatch("tool_before", toolBefore());
      expect(outcome.verdict).toBe("block");
      expect(outcome.blockedBy?.reason).toContain("KeyError");
    });

    it("UserPromptSubmit: decision block rejects the prompt; plain stdout is context for the model", async () => {
      const { root, hooks } = await workspaceWith([
        claudeHook("prompt-guard", python("prompt_guard.py"), ["turn_before"]),
      ]);
      const blocked = await hooks.dispatch("turn_before", turnBefore("deploy with password: hunter2"));
      expect(blocked.verdict).toBe("block");
      expect(blocked.blockedBy?.reason).toBe("the prompt contains a secret; remove it and try again");

      const allowed = await hooks.dispatch("turn_before", turnBefore("add a test"));
      expect(allowed.verdict).toBe("allow");
      expect(allowed.injects).toEqual([{ hook: "prompt-guard", text: `Working directory: ${root}` }]);
    });

    it("Stop: decision block asks for another turn, and a stop that a hook already continued is left alone", async () => {
      const { hooks } = await workspaceWith([
        claudeHook("tests-first", python("tests_before_stop.py"), ["turn_after"]),
      ]);
      const first = await hooks.dispatch("turn_after", turnAfter());
      expect(first.continues).toEqual([
        { hook: "tests-first", reason: "run the test suite before you finish" },
      ]);

      const again = await hooks.dispatch("turn_after", {
        ...turnAfter(),
        agent: { name: "claude", event: "Stop", stopHookActive: true },
      });
      expect(again.continues).toEqual([]);
    });
  },
);
