import { describe, expect, it } from "vitest";
import type { HookAnswer, SandboxLimits } from "../../../sandbox/index.js";
import { expectStillAnswers, type Harness, handler, harness } from "../harness.js";

/** Hooks covering each kind of answer, by name. */
const hooks: [name: string, source: string, limits?: Partial<SandboxLimits>][] = [
  ["noop", handler("")],
  ["block", handler("return { block: 'not ' + ctx.tool };")],
  ["rewrite", handler("ctx.args.command = 'ls -la'; return { notice: 'rewrote' };")],
  // The wall time of these two is the host's, answering their API call (the first one loads the
  // broker and opens the audit log): on a busy machine that took more than the harness's 400 ms.
  // They get wall time to spare; the short wallMs is for the rows that hang.
  [
    "async",
    handler("const v = await api.state.get('missing'); return { notice: String(v) };", { async: true }),
    { wallMs: 5_000 },
  ],
  ["throws", handler("throw new TypeError('bad');")],
  ["denied", handler("await api.fs.readFile('docs/readme.md');", { async: true }), { wallMs: 5_000 }],
  ["spins", handler("for (;;) {}")],
  // Its wall time holds the host's answer first, as above, then the spin: with the short wallMs a
  // busy machine stopped it by wall time in one mode and by CPU in the other. The CPU limit is what it tests.
  ["spins-late", handler("await api.state.get('k'); for (;;) {}", { async: true }), { wallMs: 5_000 }],
  ["hangs", handler("return new Promise(() => {});")],
  // Time to spare, wall time too (a call's timeout is the lesser of cpuMs and the wallMs left): the
  // heap limit must stop it in both modes. Filling 32 MB took 145-310 ms of CPU on Node 22-26, and
  // under load it did not always fit in the harness's 400 ms wall (a timeout in one mode only).
  [
    "bomb",
    handler("const hoard = []; for (;;) hoard.push(new Array(100_000).fill(1.5));"),
    { cpuMs: 5_000, wallMs: 5_000 },
  ],
  ["returns-function", handler("return () => 1;")],
  ["imports", 'import x from "x";\nexport default defineHook({ on: { tool_before() {} } });'],
  ["logs", handler("api.log('hello', ctx.callId);")],
];

async function answersIn(isolation: "process" | "inline"): Promise<{ answers: unknown[]; logs: string[] }> {
  const h: Harness = await harness({ isolation, limits: { cpuMs: 100, wallMs: 400 } });
  const answers: unknown[] = [];
  for (const [name, source, limits] of hooks) {
    const hook = h.hook(name, source, limits ? { limits } : {});
    const { hook: _id, ms: _ms, ...rest } = (await h.runOne(hook)) as HookAnswer;
    answers.push({ name, ...rest });
  }
  const logs = h.logs.map(([, text]) => text);
  await expectStillAnswers(h);
  return { answers, logs };
}

describe("inline isolation", () => {
  it("runs the same hooks with the same answers as process isolation", async () => {
    const inProcess = await answersIn("process");
    const inline = await answersIn("inline");
    expect(inline).toEqual(inProcess);
    expect(inline.answers.map((a) => (a as { code?: string }).code ?? "ok")).toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "SANDBOX_ERR_THREW",
      "SANDBOX_ERR_THREW",
      "SANDBOX_ERR_TIMEOUT",
      "SANDBOX_ERR_TIMEOUT",
      "SANDBOX_ERR_TIMEOUT",
      "SANDBOX_ERR_MEMORY",
      "SANDBOX_ERR_RESULT",
      "SANDBOX_ERR_COMPILE",
      "ok",
    ]);
  });
});
