import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "./harness.js";

describe("microtask flood", () => {
  it.each([
    [
      "a self-renewing promise chain left behind",
      "const again = () => Promise.resolve().then(again); again(); return { notice: 'left it running' };",
    ],
    ["an await loop", "for (;;) await null;"],
    ["an await loop after a host call", "await api.state.get('k'); for (;;) await null;"],
  ])("%s times out and the isolate is disposed", async (_name, body) => {
    const h = await harness({ limits: { cpuMs: 100 } });
    const answer = await h.runOne(h.hook("flood", handler(body, { async: true })));
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "used more than cpuMs (100 ms) of CPU",
    });
    // Its own time, not the sandbox process's start-up: stopped long before its wallMs (5 s).
    expect(answer.ms).toBeLessThan(4_000);
    await expectStillAnswers(h);
  });
});
