import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("microtask flood", () => {
  const cpu = { code: "SANDBOX_ERR_TIMEOUT", message: "used more than cpuMs (100 ms) of CPU" };
  const heap = { code: "SANDBOX_ERR_MEMORY", message: "ran out of memoryMb (32 MB)" };
  it.each([
    // Each turn nests one more pending promise: it spins and grows. Which limit it meets first
    // depends on how often a busy machine lets the CPU check run; the heap decides the code.
    [
      "a self-renewing promise chain left behind",
      "const again = () => Promise.resolve().then(again); again(); return { notice: 'left it running' };",
      [cpu, heap],
    ],
    ["an await loop", "for (;;) await null;", [cpu]],
    ["an await loop after a host call", "await api.state.get('k'); for (;;) await null;", [cpu]],
  ])("%s is stopped and the isolate is disposed", async (_name, body, stops) => {
    const h = await harness({ limits: { cpuMs: 100 } });
    const answer = await h.runOne(h.hook("flood", handler(body, { async: true })));
    expect(answer.status).toBe("error");
    const { code, message } = answer as { code: string; message: string };
    expect(stops).toContainEqual({ code, message });
    // Its own time, not the sandbox process's start-up: stopped long before its wallMs (5 s).
    expect(answer.ms).toBeLessThan(4_000);
    await expectStillAnswers(h);
  });
});
