import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("a hook that fails its isolate three times", () => {
  it("is quarantined for the session, the user is told once, and other hooks keep running", async () => {
    const h = await harness({ limits: { cpuMs: 50 } });
    const spinner = h.hook("spinner", handler("for (;;) {}"));
    for (let i = 0; i < 3; i++) {
      expect(await h.runOne(spinner)).toMatchObject({ status: "error", code: "SANDBOX_ERR_TIMEOUT" });
      await expectStillAnswers(h);
    }
    expect([...h.sandbox.quarantined]).toEqual([spinner.id]);
    expect(h.warnings).toEqual([
      expect.stringContaining('hook "spinner" was quarantined for this session after 3 isolate failures'),
    ]);
    for (let i = 0; i < 2; i++) {
      const answer = await h.runOne(spinner);
      expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_QUARANTINED", ms: 0 });
    }
    expect(h.warnings).toHaveLength(1);
    await expectStillAnswers(h);
  });

  it("a quarantined hook in a batch answers in its turn; the hooks before it run", async () => {
    const h = await harness({ limits: { cpuMs: 50 }, quarantineAfter: 1 });
    const spinner = h.hook("spinner", handler("for (;;) {}"));
    await h.runOne(spinner);
    const before = h.hook("before", handler("return { notice: 'ran' };"));
    const after = h.hook("after", handler("return { notice: 'ran' };"));
    const answers = await h.run([before, spinner, after]);
    expect(answers.map((a) => (a.status === "ok" ? "ok" : a.code))).toEqual([
      "ok",
      "SANDBOX_ERR_QUARANTINED",
    ]);
    await expectStillAnswers(h);
  });

  it("a hook's own throws do not count", async () => {
    const h = await harness();
    const thrower = h.hook("thrower", handler('throw new Error("mine");'));
    for (let i = 0; i < 5; i++) expect(await h.runOne(thrower)).toMatchObject({ code: "SANDBOX_ERR_THREW" });
    expect(h.sandbox.quarantined.size).toBe(0);
    expect(h.warnings).toEqual([]);
    await expectStillAnswers(h);
  });

  it("crashes of the sandbox process count towards it", async () => {
    let inFlight: (() => void) | undefined;
    const h = await harness({ quarantineAfter: 2, onStateGet: () => inFlight?.() });
    const victim = h.hook(
      "victim",
      handler(`await api.state.get("k"); await new Promise(() => {});`, { async: true }),
    );
    for (let i = 0; i < 2; i++) {
      const reached = new Promise<void>((resolve) => {
        inFlight = resolve;
      });
      const answer = h.runOne(victim);
      await reached;
      process.kill(h.sandbox.pid as number, "SIGKILL");
      expect(await answer).toMatchObject({ code: "SANDBOX_ERR_CRASHED" });
    }
    expect([...h.sandbox.quarantined]).toEqual([victim.id]);
    expect(h.warnings).toHaveLength(1);
    await expectStillAnswers(h);
  });
});
