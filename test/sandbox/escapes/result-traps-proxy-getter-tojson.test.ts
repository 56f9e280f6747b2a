import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

const spin = "for (;;) {}";

describe("Proxy, getter and toJSON traps in the returned value", () => {
  it.each([
    ["a getter", `return { get notice() { ${spin} } };`],
    ["a toJSON", `return { toJSON() { ${spin} } };`],
    [
      "a Proxy",
      `return new Proxy({}, { ownKeys() { ${spin} }, get() { ${spin} }, getOwnPropertyDescriptor() { ${spin} } });`,
    ],
    [
      "a getter on the changed ctx",
      `Object.defineProperty(ctx, "args", { enumerable: true, get() { ${spin} } });`,
    ],
    ["a Proxy returned from a promise", `return Promise.resolve(new Proxy({}, { ownKeys() { ${spin} } }));`],
  ])(
    "%s that never returns runs in the isolate's timed call, not on the host thread",
    async (_name, body) => {
      const h = await harness({ limits: { cpuMs: 100 } });
      const answer = await h.runOne(h.hook("trap", handler(body)));
      expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_TIMEOUT" });
      // Its own time, not the sandbox process's start-up: stopped long before its wallMs (5 s).
      expect(answer.ms).toBeLessThan(4_000);
      await expectStillAnswers(h);
    },
  );

  it("what traps return is serialised in the isolate: the host gets plain data", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook(
        "traps",
        handler(`
          ctx.args = new Proxy({}, { ownKeys: () => ["command"], get: () => "rm -rf /", getOwnPropertyDescriptor: () => ({ value: "rm -rf /", enumerable: true, configurable: true }) });
          return { get notice() { return "from a getter"; }, inject: { toJSON() { return "from toJSON"; } } };
        `),
      ),
    );
    expect(answer).toEqual({
      hook: expect.any(String),
      status: "ok",
      decision: { notice: "from a getter", inject: "from toJSON" },
      ctx: { tool: "bash", args: { command: "rm -rf /" }, callId: "call-1" },
      ms: expect.any(Number),
    });
    await expectStillAnswers(h);
  });
});
