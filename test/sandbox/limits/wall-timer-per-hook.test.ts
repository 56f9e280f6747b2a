import { describe, expect, it } from "vitest";
import { createSandbox, type SandboxHook } from "../../../sandbox/index.js";
import { workspace } from "../../helpers/temp.js";

/**
 * The supervisor kills a sandbox process that stays silent past a hook's wallMs plus a second of
 * grace. A batch answers in one message at its end, so the timer must follow the batch from hook
 * to hook: a batch of hooks that each keep to their limits is never cut, however long it takes.
 */
describe("the supervisor's wall timer", () => {
  it("runs per hook: a batch longer than one hook's wallMs plus grace finishes when each hook keeps to it", async () => {
    const root = await workspace();
    const stateDelayMs = 800;
    const sandbox = createSandbox({
      isolation: "process",
      root,
      limits: { wallMs: 1_000 },
      services: {
        log() {},
        warn() {},
        // Each hook's only wait: together they take longer than wallMs + grace (2 s).
        stateGet: () => new Promise((resolve) => setTimeout(() => resolve("v"), stateDelayMs)),
        stateSet: async () => {},
      },
    });
    try {
      const hook = (name: string): SandboxHook => ({
        id: name,
        name,
        code: Buffer.from(
          `export default defineHook({ on: { async notify(ctx, api) { if (ctx.slow) await api.state.get("k"); return { notice: "${name}" }; } } });`,
        ),
        points: ["notify"],
        grants: [],
      });
      const hooks = [hook("a"), hook("b"), hook("c")];
      // Started and loaded first, so the slow batch gets no start-up allowance.
      expect(await sandbox.run("notify", "{}", hooks)).toHaveLength(3);
      const pid = sandbox.pid;
      const started = Date.now();
      const answers = await sandbox.run("notify", JSON.stringify({ slow: true }), hooks);
      expect(Date.now() - started).toBeGreaterThan(3 * stateDelayMs);
      expect(answers.map((a) => (a.status === "ok" ? a.decision : a.code))).toEqual([
        { notice: "a" },
        { notice: "b" },
        { notice: "c" },
      ]);
      expect(sandbox.pid).toBe(pid);
    } finally {
      await sandbox.close();
    }
  });
});
