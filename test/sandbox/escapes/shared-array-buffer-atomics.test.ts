import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

const waitForever = "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);";

describe("SharedArrayBuffer and Atomics", () => {
  it.each([
    ["Atomics.wait in the handler", waitForever],
    ["Atomics.wait after an await on a host call", `await api.state.get("k"); ${waitForever}`],
  ])("%s is cut at cpuMs", async (_name, body) => {
    const h = await harness({ limits: { cpuMs: 100 } });
    const answer = await h.runOne(h.hook("waiter", handler(body, { async: true })));
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "used more than cpuMs (100 ms) of CPU",
    });
    // Its own time, not the sandbox process's start-up: stopped long before its wallMs (5 s).
    expect(answer.ms).toBeLessThan(4_000);
    await expectStillAnswers(h);
  });

  it.each(["process", "inline"] as const)(
    "Atomics.waitAsync is not offered (with a timeout it aborted the process holding the isolate): %s isolation",
    async (isolation) => {
      const h = await harness({ isolation });
      const answer = await h.runOne(
        h.hook(
          "async-waiter",
          handler(
            "const kind = typeof Atomics.waitAsync; if (kind === 'function') Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); return { notice: kind };",
            { async: true },
          ),
        ),
      );
      expect(answer).toMatchObject({ status: "ok", decision: { notice: "undefined" } });
      await expectStillAnswers(h);
    },
  );

  it("shared memory never leaves the isolate: the host gets a JSON copy", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook(
        "sharer",
        handler(
          "const shared = new SharedArrayBuffer(8); ctx.args = new Int32Array(shared); return { notice: shared };",
        ),
      ),
    );
    expect(answer).toMatchObject({
      status: "ok",
      decision: { notice: {} },
      ctx: { args: { 0: 0, 1: 0 } },
    });
    await expectStillAnswers(h);
  });

  it("a SharedArrayBuffer larger than the memory limit is refused", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook(
        "big-shared",
        handler(
          "try { new SharedArrayBuffer(256 * 1024 * 1024); return { notice: 'allocated' }; } catch (e) { return { notice: e.name }; }",
        ),
      ),
    );
    expect(answer).toMatchObject({ status: "ok", decision: { notice: "RangeError" } });
    await expectStillAnswers(h);
  });
});
