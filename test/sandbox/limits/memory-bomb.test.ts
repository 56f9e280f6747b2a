import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

const bomb = "const hoard = []; for (;;) hoard.push(new Array(100_000).fill(1.5));";

describe("memory bomb", () => {
  it.each([
    ["while the handler runs", bomb],
    ["after an await on a host call", `await api.state.get("k"); ${bomb}`],
    ["in the bundle's top-level code", null],
  ])("%s: the isolate is disposed, the agent's process survives, the next hook runs", async (_name, body) => {
    // CPU to spare, so the heap limit is what stops it: filling 32 MB took 145-310 ms of CPU on
    // Node 22, 24 and 26 (V8 collects garbage ever more often near the limit), more on a busy
    // machine. A bomb that cpuMs stops first is the case below.
    const h = await harness({ limits: { memoryMb: 32, cpuMs: 5_000 } });
    const source =
      body === null ? `${bomb}\nexport default defineHook({ on: {} });` : handler(body, { async: true });
    const hook = h.hook("bomb", source);
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_MEMORY",
      message: "ran out of memoryMb (32 MB)",
    });
    await expectStillAnswers(h);
    // The same hook gets a fresh isolate, and fails the same way, without taking anything down.
    expect(await h.runOne(hook)).toMatchObject({ status: "error", code: "SANDBOX_ERR_MEMORY" });
    await expectStillAnswers(h);
  });
});

/**
 * The heap, not the clock, names the failure of a hook that cpuMs stops. These hooks fill their
 * heap in a few ms (ArrayBuffers count against memoryMb too) and then spin, so cpuMs (the default,
 * 100 ms) always stops them, and what they hold at that moment is fixed.
 */
describe("a hook stopped at cpuMs", () => {
  const fill = "const keep = []; try { for (;;) keep.push(new ArrayBuffer(1 << 20)); } catch {}";

  it.each([
    ["in the handler", handler(`${fill} for (;;) {}`)],
    ["in the bundle's top-level code", `${fill} for (;;) {}\nexport default defineHook({ on: {} });`],
  ])("with its heap full %s: a memory failure, not a timeout", async (_name, source) => {
    const h = await harness();
    const answer = await h.runOne(h.hook("filled", source));
    // The same words as a bomb the heap limit stops: which stop comes first is down to timing.
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_MEMORY",
      message: "ran out of memoryMb (32 MB)",
    });
    await expectStillAnswers(h);
  });

  it("holding a third of its heap: a timeout", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook("third", handler("const keep = new ArrayBuffer(12 << 20); for (;;) {}")),
    );
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "used more than cpuMs (100 ms) of CPU",
    });
    await expectStillAnswers(h);
  });

  it("with a spinning microtask left queued: the heap is still read, and the sandbox answers", async () => {
    // getHeapStatisticsSync() after the stop runs this microtask first, with no timeout: it hung.
    const trap = "Promise.resolve().then(() => { for (;;) {} });";
    const h = await harness();
    const full = await h.runOne(h.hook("trap-full", handler(`${trap} ${fill} for (;;) {}`)));
    expect(full).toMatchObject({ status: "error", code: "SANDBOX_ERR_MEMORY" });
    const empty = await h.runOne(h.hook("trap-empty", handler(`${trap} for (;;) {}`)));
    expect(empty).toMatchObject({ status: "error", code: "SANDBOX_ERR_TIMEOUT" });
    await expectStillAnswers(h);
  });
});
