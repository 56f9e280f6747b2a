import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("for(;;){}", () => {
  it("times out at cpuMs, and the hook's next call gets a fresh isolate", async () => {
    const h = await harness({ limits: { cpuMs: 50 } });
    const hook = h.hook(
      "spinner",
      handler(`
        globalThis.calls = (globalThis.calls ?? 0) + 1;
        if (ctx.tool === "bash") for (;;) {}
        return { notice: "call " + globalThis.calls };
      `),
    );
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "used more than cpuMs (50 ms) of CPU",
    });
    // Stopped by its CPU limit, long before its wallMs (5 s), however busy the machine (the
    // sandbox process's start-up is not in the hook's time).
    expect((answer as { ms: number }).ms).toBeLessThan(5_000);
    const pid = h.sandbox.pid;
    // A fresh isolate: the global the first call set is gone.
    const next = await h.runOne(hook, { ctxJson: JSON.stringify({ tool: "read_file", args: {} }) });
    expect(next).toMatchObject({ status: "ok", decision: { notice: "call 1" } });
    expect(h.sandbox.pid).toBe(pid);
    await expectStillAnswers(h);
  });

  it("also in the bundle's top-level code", async () => {
    const h = await harness({ limits: { cpuMs: 50 } });
    const answer = await h.runOne(
      h.hook("top-level-spinner", `for (;;) {}\nexport default defineHook({ on: {} });`),
    );
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_TIMEOUT" });
    await expectStillAnswers(h);
  });
});
