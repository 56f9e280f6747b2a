import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("a never-settling promise", () => {
  it.each([
    ["a promise that never settles", "return new Promise(() => {});"],
    ["a thenable that never calls back", "return { then() {} };"],
    ["an await on one", "await new Promise(() => {}); return { notice: 'unreachable' };"],
  ])("%s times out at wallMs; the hook's next call runs", async (_name, body) => {
    const h = await harness({ limits: { wallMs: 300 } });
    const hook = h.hook(
      "hangs",
      handler(`if (ctx.tool === "bash") { ${body} } return { notice: "fresh" };`, { async: true }),
    );
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_TIMEOUT",
      message: "did not finish within wallMs (300 ms, including its API calls)",
    });
    // Its own time (the sandbox process's start-up is not in it): at least its wallMs.
    expect(answer.ms).toBeGreaterThanOrEqual(290);
    const next = await h.runOne(hook, { ctxJson: JSON.stringify({ tool: "read_file", args: {} }) });
    expect(next).toMatchObject({ status: "ok", decision: { notice: "fresh" } });
    await expectStillAnswers(h);
  });
});
