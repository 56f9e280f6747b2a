import { describe, expect, it } from "vitest";
import { ctx, handler, harness } from "../harness.js";

const answerOf = (a: { status: string; code?: string }) => (a.status === "ok" ? "ok" : a.code);

describe("a batch of hooks in one round trip", () => {
  it("each hook gets its own fresh copy of ctx; unchanged copies are not sent back", async () => {
    const h = await harness();
    const observer = (name: string) =>
      h.hook(
        name,
        handler("const seen = JSON.stringify(ctx); ctx.scratch = undefined; return { notice: seen };"),
      );
    const answers = await h.run([observer("a"), observer("b"), observer("c")]);
    expect(answers.map((a) => a.status === "ok" && a.decision)).toEqual([
      { notice: JSON.stringify(ctx) },
      { notice: JSON.stringify(ctx) },
      { notice: JSON.stringify(ctx) },
    ]);
    for (const answer of answers) expect(answer).not.toHaveProperty("ctx");
  });

  it.each([
    ["a block", "return { block: 'no' };", "ok"],
    ["a changed ctx", "ctx.args.command = 'ls -la';", "ok"],
    ["a failure", "throw new Error('x');", "SANDBOX_ERR_THREW"],
  ])("stops after %s, so the caller applies it before the rest run", async (_name, body, expected) => {
    const h = await harness();
    const pass = h.hook("pass", handler("return { notice: 'passed' };"));
    const stopper = h.hook("stopper", handler(body));
    const answers = await h.run([pass, stopper, h.hook("later", handler("return {};"))]);
    expect(answers.map(answerOf)).toEqual(["ok", expected]);
  });

  it("a ctx larger than maxCtxBytes is refused before the hook runs", async () => {
    const h = await harness({ limits: { maxCtxBytes: 100 } });
    const ctxJson = JSON.stringify({ tool: "bash", args: { command: "x".repeat(200) } });
    const [answer] = await h.run(h.hook("small", handler("return {};")), { ctxJson });
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_CTX_TOO_LARGE" });
  });

  it("concurrent batches through the same hook run one call at a time, each with its own answer", async () => {
    const h = await harness();
    const slow = h.hook(
      "slow",
      handler(
        "const n = ctx.n; await api.state.get('k'); api.log('call ' + n); return { notice: 'n=' + n };",
        { async: true },
      ),
    );
    const runs = [1, 2, 3, 4].map((n) => h.run(slow, { ctxJson: JSON.stringify({ n }) }));
    const answers = (await Promise.all(runs)).flat();
    expect(answers.map((a) => a.status === "ok" && a.decision)).toEqual(
      [1, 2, 3, 4].map((n) => ({ notice: `n=${n}` })),
    );
    expect(h.logs.map(([, text]) => text).sort()).toEqual(["call 1", "call 2", "call 3", "call 4"]);
  });
});
