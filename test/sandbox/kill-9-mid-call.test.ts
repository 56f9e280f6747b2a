import { describe, expect, it } from "vitest";
import { benignSource, expectStillAnswers, handler, harness } from "./harness.js";

describe("kill -9 of the sandbox process mid-call", () => {
  it("the running hook answers SANDBOX_ERR_CRASHED, earlier hooks keep their answers, the next call forks a new process", async () => {
    let inFlight: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => {
      inFlight = resolve;
    });
    const h = await harness({ limits: { wallMs: 10_000 }, onStateGet: () => inFlight?.() });
    const first = h.hook("first", benignSource);
    const victim = h.hook(
      "victim",
      handler(`await api.state.get("k"); await new Promise(() => {});`, { async: true }),
    );
    const never = h.hook("never", benignSource);
    const batch = h.run([first, victim, never]);
    await reached;
    const pid = h.sandbox.pid as number;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, "SIGKILL");
    const answers = await batch;
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({
      hook: first.id,
      status: "ok",
      decision: { notice: "still here: bash" },
    });
    expect(answers[1]).toMatchObject({ hook: victim.id, status: "error", code: "SANDBOX_ERR_CRASHED" });
    expect((answers[1] as { message: string }).message).toContain("signal SIGKILL");
    await expectStillAnswers(h);
    expect(h.sandbox.pid).not.toBe(pid);
  });

  it("a process that dies while idle is replaced on the next call", async () => {
    const h = await harness();
    await expectStillAnswers(h);
    const pid = h.sandbox.pid as number;
    process.kill(pid, "SIGKILL");
    await expect.poll(() => h.sandbox.pid, { timeout: 2_000 }).toBeUndefined();
    await expectStillAnswers(h);
    expect(h.sandbox.pid).not.toBe(pid);
  });
});
