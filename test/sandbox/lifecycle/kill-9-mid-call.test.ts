import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { processWaitMs } from "../../helpers/timeouts.js";
import { benignSource, expectStillAnswers, handler, harness } from "../harness.js";

/** The sandbox process's CPU time (user + system) in clock ticks, from /proc. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

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

  it.skipIf(process.platform !== "linux").each([
    ["", false],
    [", also when no temporary file can be made", true],
  ])(
    "while a later hook runs without pausing, the hooks before it keep their answers and their log lines%s",
    async (_title, noTempDir) => {
      // Nothing crosses to the agent's process between these hooks: what the earlier ones
      // answered can only come from the progress the sandbox process keeps as it goes (in a
      // temporary file, or else in a message per answer).
      const h = await harness({ limits: { cpuMs: 20_000, wallMs: 20_000 } });
      if (noTempDir) {
        const tmpdir = process.env.TMPDIR;
        process.env.TMPDIR = `${h.root}/missing`;
        h.sandbox.start();
        if (tmpdir === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = tmpdir;
      }
      const early = (name: string) =>
        h.hook(name, handler(`api.log("${name} ran"); return { notice: "${name}: " + ctx.tool };`));
      const spinner = h.hook("spinner", handler(`if (ctx.tool === "spin") for (;;) {}`));
      const hooks = [early("one"), early("two"), spinner, h.hook("never", benignSource)];
      // The first batch loads every isolate; the second spins in the third hook.
      expect(await h.run(hooks)).toHaveLength(4);
      const pid = h.sandbox.pid as number;
      const before = await cpuTicks(pid);
      const batch = h.run(hooks, { ctxJson: JSON.stringify({ tool: "spin", args: {} }) });
      const deadline = Date.now() + 10_000;
      // 30 ticks (300 ms) of CPU can only be the spinner: the hooks before it take microseconds.
      while ((await cpuTicks(pid)) - before < 30 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      process.kill(pid, "SIGKILL");
      const answers = await batch;
      expect(answers.map((a) => (a.status === "ok" ? a.decision : a.code))).toEqual([
        { notice: "one: spin" },
        { notice: "two: spin" },
        "SANDBOX_ERR_CRASHED",
      ]);
      expect(answers[2]?.hook).toBe(spinner.id);
      expect(h.logs.map(([, text]) => text)).toEqual(["one ran", "two ran", "one ran", "two ran"]);
      await expectStillAnswers(h);
    },
  );

  it("earlier answers too large to keep in the progress file are kept all the same", async () => {
    let inFlight: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => {
      inFlight = resolve;
    });
    const h = await harness({ limits: { wallMs: 10_000 }, onStateGet: () => inFlight?.() });
    const big = h.hook("big", handler(`return { notice: "x".repeat(200000) };`));
    const small = h.hook("small", handler(`return { notice: "small" };`));
    const victim = h.hook(
      "victim",
      handler(`await api.state.get("k"); await new Promise(() => {});`, { async: true }),
    );
    const batch = h.run([big, small, victim]);
    await reached;
    process.kill(h.sandbox.pid as number, "SIGKILL");
    const answers = await batch;
    expect(answers.map((a) => (a.status === "ok" ? "ok" : a.code))).toEqual([
      "ok",
      "ok",
      "SANDBOX_ERR_CRASHED",
    ]);
    expect((answers[0] as { decision: { notice: string } }).decision.notice).toHaveLength(200_000);
    expect(answers[1]).toMatchObject({ status: "ok", decision: { notice: "small" } });
    await expectStillAnswers(h);
  });

  it("with two batches in flight, the hook running in each answers SANDBOX_ERR_CRASHED and the hooks before keep their answers", async () => {
    let waiting = 0;
    let bothInFlight: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => {
      bothInFlight = resolve;
    });
    const h = await harness({
      limits: { wallMs: 10_000 },
      onStateGet: () => {
        if (++waiting === 2) bothInFlight?.();
      },
    });
    const victim = (name: string) =>
      h.hook(name, handler(`await api.state.get("k"); await new Promise(() => {});`, { async: true }));
    const first = [h.hook("a", handler(`return { notice: "a" };`)), victim("victim-a")];
    const second = [
      h.hook("b", handler(`return { notice: "b" };`)),
      h.hook("c", handler(`return { notice: "c" };`)),
      victim("victim-b"),
    ];
    const batches = Promise.all([h.run(first), h.run(second)]);
    await reached;
    process.kill(h.sandbox.pid as number, "SIGKILL");
    const [one, two] = await batches;
    const summary = (answers: typeof one) => answers.map((a) => (a.status === "ok" ? a.decision : a.code));
    expect(summary(one)).toEqual([{ notice: "a" }, "SANDBOX_ERR_CRASHED"]);
    expect(summary(two)).toEqual([{ notice: "b" }, { notice: "c" }, "SANDBOX_ERR_CRASHED"]);
    await expectStillAnswers(h);
  });

  it("a process that dies while idle is replaced on the next call", async () => {
    const h = await harness();
    await expectStillAnswers(h);
    const pid = h.sandbox.pid as number;
    process.kill(pid, "SIGKILL");
    await expect.poll(() => h.sandbox.pid, { timeout: processWaitMs }).toBeUndefined();
    await expectStillAnswers(h);
    expect(h.sandbox.pid).not.toBe(pid);
  });
});
