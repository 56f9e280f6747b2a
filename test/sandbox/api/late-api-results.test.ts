import { describe, expect, it } from "vitest";
import { processWaitMs } from "../../helpers/timeouts.js";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("API results that arrive after the call ended", () => {
  it("are made, but never delivered, so no hook code runs in the isolate between calls", async () => {
    const made: string[] = [];
    const h = await harness({ limits: { cpuMs: 100 }, onStateGet: (_hook, key) => void made.push(key) });
    const hook = h.hook(
      "fire-and-forget",
      handler(`
        const ranLate = globalThis.ranLate === true;
        api.state.get("k").then(() => { globalThis.ranLate = true; for (;;) {} });
        return { notice: "late code ran: " + ranLate };
      `),
    );
    for (let i = 0; i < 3; i++) {
      const answer = await h.runOne(hook);
      expect(answer).toMatchObject({ status: "ok", decision: { notice: "late code ran: false" } });
      // Its own time, not the sandbox process's start-up: well within its wallMs (5 s).
      expect(answer.ms).toBeLessThan(4_000);
    }
    // Each call reaches the host when the sandbox process gets the CPU: on a busy machine, seconds.
    await expect.poll(() => made, { timeout: processWaitMs }).toEqual(["k", "k", "k"]);
    await expectStillAnswers(h);
  });

  it("are made when the hook's next call has begun before they reach the host", async () => {
    const made: string[] = [];
    const h = await harness({ onStateGet: (_hook, key) => void made.push(key) });
    const hook = h.hook(
      "fire-and-forget",
      handler(`
        api.state.get("k" + (globalThis.n = (globalThis.n ?? 0) + 1));
        return { notice: "sent" };
      `),
    );
    // One batch calls the hook three times back to back: each call's API call reaches the host
    // only after the next call began.
    const answers = await h.run([hook, hook, hook]);
    expect(answers.map((a) => a.status)).toEqual(["ok", "ok", "ok"]);
    await expect.poll(() => [...made].sort(), { timeout: processWaitMs }).toEqual(["k1", "k2", "k3"]);
    await expectStillAnswers(h);
  });

  it("more than 64 calls in flight are refused inside the hook", async () => {
    const h = await harness();
    const hook = h.hook(
      "flood-calls",
      handler(
        `
        const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => api.state.get("k" + i)));
        const refused = results.filter((r) => r.status === "rejected");
        return { notice: refused.length + " " + (refused[0] && refused[0].reason.code) };
        `,
        { async: true },
      ),
    );
    expect(await h.runOne(hook)).toMatchObject({
      status: "ok",
      decision: { notice: "36 SANDBOX_API_TOO_MANY_CALLS" },
    });
    await expectStillAnswers(h);
  });
});
