import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RunnerError } from "../../../core/errors.js";
import { CommunitySandbox } from "../../../runner/community-sandbox.js";
import type { CompiledHook } from "../../../runner/compiled-hook.js";
import { StateStore } from "../../../runner/state.js";
import { type SandboxedHook, sandboxedHook } from "../../../runner/testing.js";
import { SandboxError } from "../../../sandbox/index.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace, writeFiles } from "../../helpers/temp.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** A result past the default maxResultBytes (2 MiB): the sandbox answers SANDBOX_ERR_RESULT. */
const oversized = `export default { on: { tool_before() { return { block: "x".repeat(3_000_000) }; } } };`;
const throws = `export default { on: { tool_before() { throw new Error("no"); } } };`;
const spins = `export default { on: { tool_before() { for (;;) {} } } };`;

describe("a sandbox failure, wrapped into a RunnerError, keeps its SANDBOX_ERR_* code", () => {
  it("as the error's cause, a SandboxError with .code, whatever runner code it maps to", async () => {
    const root = await workspace();
    const sandbox = new CommunitySandbox({
      root,
      logger: recordingLogger(),
      state: new StateStore(join(root, ".hookyard", "state")),
      // Room for building and copying out a 3 MB result on a busy machine; the spin case still
      // ends at this limit.
      limits: { cpuMs: 1000 },
    });
    open.push(sandbox);
    const cases: [string, string, string][] = [
      [oversized, "RUN_ERR_SANDBOX", "SANDBOX_ERR_RESULT"],
      [throws, "RUN_ERR_HOOK_THREW", "SANDBOX_ERR_THREW"],
      [spins, "RUN_ERR_HOOK_TIMEOUT", "SANDBOX_ERR_TIMEOUT"],
    ];
    for (const [i, [source, runnerCode, sandboxCode]] of cases.entries()) {
      const compiled = { name: `hook-${i}`, onError: "open" } as CompiledHook;
      sandbox.register(compiled, {
        id: `hook-${i}@1`,
        name: `hook-${i}`,
        code: Buffer.from(source),
        points: ["tool_before"],
        grants: [],
      });
      const ctx = { sessionId: "s", tool: "bash", args: { command: "ls" }, callId: "c" };
      const [answer] = await sandbox.run("tool_before", ctx, [compiled]);
      expect(answer?.ok).toBe(false);
      const error = answer && !answer.ok ? answer.error : undefined;
      expect(error).toBeInstanceOf(RunnerError);
      expect(error).toMatchObject({ code: runnerCode, hook: `hook-${i}`, point: "tool_before" });
      expect((error as RunnerError).cause).toBeInstanceOf(SandboxError);
      expect((error as RunnerError).cause).toMatchObject({ code: sandboxCode });
    }
  });

  it("in what the user sees: the chain's warning and the error logged name it", async () => {
    const root = await workspace();
    await writeFiles(root, { "src/big.ts": oversized });
    const hook: SandboxedHook = await sandboxedHook(join(root, "src", "big.ts"), { root });
    open.push(hook);
    const outcome = await hook.run("tool_before", { tool: "bash", args: { command: "ls" } });
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs[0]?.status).toBe("error");
    expect(outcome.warnings).toHaveLength(1);
    expect(outcome.warnings[0]).toMatchObject({ hook: "big", code: "RUN_ERR_SANDBOX" });
    expect(outcome.warnings[0]?.message).toMatch(/^SANDBOX_ERR_RESULT: /);
    expect(hook.errors.join("\n")).toContain("SANDBOX_ERR_RESULT");
  });
});
