import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

const notice =
  /^\(log limit reached: 100 lines or \d+ bytes per call; the rest of this call's log was dropped\)$/;

describe("log flood", () => {
  it("a million lines in one call reach the host as 100 lines and one notice", async () => {
    const h = await harness();
    const hook = h.hook(
      "flooder",
      handler(`for (let i = 0; i < 1_000_000; i++) api.log("line", i); return { notice: "done" };`),
    );
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({ status: "ok", decision: { notice: "done" } });
    const lines = h.logs.map(([, text]) => text);
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe("line 0");
    expect(lines[99]).toBe("line 99");
    expect(lines[100]).toMatch(notice);
    // The cap is per call: the next call logs again.
    await h.runOne(hook);
    expect(h.logs).toHaveLength(202);
    await expectStillAnswers(h);
  });

  it("one huge line is dropped whole once it passes maxLogBytes", async () => {
    const h = await harness({ limits: { maxLogBytes: 1_000 } });
    await h.runOne(
      h.hook("big-line", handler(`api.log("short"); api.log("z".repeat(10_000_000)); api.log("after");`)),
    );
    const lines = h.logs.map(([, text]) => text);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("short");
    expect(lines[1]).toMatch(notice);
    await expectStillAnswers(h);
  });
});
