import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("for(;;){} after an await on a host call", () => {
  it("the watchdog disposes the isolate at cpuMs; the sandbox process lives on", async () => {
    const h = await harness({ limits: { cpuMs: 100 } });
    const hook = h.hook("late-spinner", handler(`await api.state.get("k"); for (;;) {}`, { async: true }));
    await expectStillAnswers(h);
    const pid = h.sandbox.pid;
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "used more than cpuMs (100 ms) of CPU",
    });
    // Its own time, not the sandbox process's start-up: stopped long before its wallMs (5 s).
    expect(answer.ms).toBeLessThan(4_000);
    expect(h.sandbox.pid).toBe(pid);
    await expectStillAnswers(h);
  });

  it("the same after an API call the broker denied", async () => {
    const h = await harness({ limits: { cpuMs: 100 } });
    const hook = h.hook(
      "denied-then-spin",
      handler(`try { await api.env.get("HOME"); } catch {} for (;;) {}`, { async: true }),
    );
    await expectStillAnswers(h);
    const pid = h.sandbox.pid;
    expect(await h.runOne(hook)).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "used more than cpuMs (100 ms) of CPU",
    });
    expect(h.sandbox.pid).toBe(pid);
    await expectStillAnswers(h);
  });
});
