import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("an unhandled rejection whose reason is a trap", () => {
  it("a plain unhandled rejection fails the call as the hook's own error", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook("rejects", handler('Promise.reject(new Error("forgotten")); return { notice: "x" };')),
    );
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_THREW",
      message: "an unhandled promise rejection: forgotten",
    });
    await expectStillAnswers(h);
  });

  it("a reason whose message getter never returns hangs only the sandbox process, which is killed and replaced", async () => {
    // isolated-vm reads an unhandled rejection's message on the thread that ran the call, with no
    // time limit: the supervisor's wall timer (wallMs + grace) is what ends it.
    const h = await harness({ limits: { wallMs: 200 } });
    await expectStillAnswers(h);
    const pid = h.sandbox.pid;
    const answer = await h.runOne(
      h.hook("trap", handler('Promise.reject({ get message() { for (;;) {} } }); return { notice: "x" };')),
    );
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_TIMEOUT" });
    expect((answer as { message: string }).message).toContain("the sandbox process was killed");
    // Killed at wallMs + grace (1.2 s) from when the hook started.
    expect(answer.ms).toBeLessThan(3_000);
    await expectStillAnswers(h);
    expect(h.sandbox.pid).not.toBe(pid);
  });

  it("the hooks before the trap in its batch keep their answers; only the trap answers SANDBOX_ERR_TIMEOUT", async () => {
    const h = await harness({ limits: { wallMs: 200 } });
    const before = h.hook("before", handler('return { notice: "before" };'));
    const trap = h.hook("trap", handler("Promise.reject({ get message() { for (;;) {} } }); return {};"));
    // The first call of a new process: the process's start-up must not delay the end of the trap,
    // which gets wallMs + grace from when it started (its time, as the answer says).
    const answers = await h.run([before, trap, h.hook("after", handler("return {};"))]);
    expect(answers[1]?.ms).toBeLessThan(4_000);
    expect(answers.map((a) => (a.status === "ok" ? a.decision : a.code))).toEqual([
      { notice: "before" },
      "SANDBOX_ERR_TIMEOUT",
    ]);
    expect(answers[1]?.hook).toBe(trap.id);
    await expectStillAnswers(h);
  });
});
