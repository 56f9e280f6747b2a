import { type ChildProcess, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

/**
 * The limits that stop hostile hooks must keep stopping them when every core is busy, and must not
 * stop a healthy hook for the time it spent waiting for a CPU (issue 15). Each test here runs with
 * two busy loops per core alongside, in processes of their own, each ending by itself within a
 * minute should the test not stop it.
 */
const spinners: ChildProcess[] = [];

beforeAll(() => {
  for (let i = 0; i < 2 * availableParallelism(); i++) {
    spinners.push(
      spawn(process.execPath, ["-e", "const end = Date.now() + 60_000; while (Date.now() < end) {}"], {
        stdio: "ignore",
      }),
    );
  }
});

afterAll(() => {
  for (const spinner of spinners) spinner.kill("SIGKILL");
});

describe("with every core busy", () => {
  it("an endless loop is stopped by cpuMs, and said to be, in the handler and after an await", async () => {
    const h = await harness();
    for (const body of ["for (;;) {}", 'await api.state.get("k"); for (;;) {}']) {
      const answer = await h.runOne(h.hook("spinner", handler(body, { async: true })));
      expect(answer).toMatchObject({
        status: "error",
        code: "SANDBOX_ERR_TIMEOUT",
        message: "used more than cpuMs (100 ms) of CPU",
      });
    }
    await expectStillAnswers(h);
  });

  it("a memory bomb is stopped, as out of memory", async () => {
    // CPU to spare, so the heap limit is what stops it (with the default cpuMs, either may be first:
    // memory-bomb.test.ts).
    const h = await harness({ limits: { cpuMs: 5_000 } });
    const answer = await h.runOne(
      h.hook("bomb", handler("const hoard = []; for (;;) hoard.push(new Array(100_000).fill(1.5));")),
    );
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_MEMORY",
      message: "ran out of memoryMb (32 MB)",
    });
    await expectStillAnswers(h);
  });

  it("a hook that never answers is stopped at its wallMs", async () => {
    const h = await harness({ limits: { wallMs: 500 } });
    const answer = await h.runOne(h.hook("hangs", handler("return new Promise(() => {});")));
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "did not finish within wallMs (500 ms, including its API calls)",
    });
    await expectStillAnswers(h);
  });

  it("a healthy hook's first call, in a sandbox process started for it, and its work both sides of an await, answer", async () => {
    const h = await harness();
    // A few ms of CPU on an idle machine, each side of a host call: many times that in wall time here.
    const work = "let n = 0; for (let i = 0; i < 300_000; i++) n = (n * 31 + i) % 1_000_003; return n;";
    const hook = h.hook(
      "worker",
      handler(
        `const work = () => { ${work} }; const before = work(); await api.state.get("k"); return { notice: String(before === work()) };`,
        {
          async: true,
        },
      ),
    );
    for (let i = 0; i < 3; i++) {
      expect(await h.runOne(hook)).toMatchObject({ status: "ok", decision: { notice: "true" } });
    }
    await expectStillAnswers(h);
  });
});
