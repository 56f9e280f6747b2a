import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

const hundredMb = 100 * 1024 * 1024;

describe("a 100 MB string result", () => {
  it("is refused inside the isolate, before it is copied out, when memory allows building it", async () => {
    const h = await harness();
    const hook = h.hook("huge", handler(`return { notice: "x".repeat(${hundredMb}) };`), {
      // Wall time to spare: building 100 MB on a busy machine is slow, and this is about the result check.
      limits: { memoryMb: 512, cpuMs: 10_000, wallMs: 20_000 },
    });
    const rssBefore = process.memoryUsage().rss;
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_RESULT",
      message: `the result is larger than maxResultBytes (${2 * 1024 * 1024} bytes)`,
    });
    // Nothing near 100 MB crossed into the agent's process.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(50 * 1024 * 1024);
    await expectStillAnswers(h);
  });

  it("runs the isolate out of memory under the default limit", async () => {
    const h = await harness({ limits: { cpuMs: 10_000, wallMs: 20_000 } });
    const answer = await h.runOne(h.hook("huge", handler(`return { notice: "x".repeat(${hundredMb}) };`)));
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_MEMORY" });
    await expectStillAnswers(h);
  });

  it("a changed ctx counts towards maxResultBytes too", async () => {
    const h = await harness();
    const hook = h.hook("fat-ctx", handler(`ctx.args.command = "y".repeat(2_000);`), {
      limits: { maxResultBytes: 1_000 },
    });
    expect(await h.runOne(hook)).toMatchObject({ status: "error", code: "SANDBOX_ERR_RESULT" });
    await expectStillAnswers(h);
  });
});
