import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("deep recursion", () => {
  it("a stack overflow is the hook's own catchable error", async () => {
    const h = await harness();
    const thrown = await h.runOne(
      h.hook("recurse", handler("const down = (n) => down(n + 1) + 1; down(0);")),
    );
    expect(thrown).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_THREW",
      message: "RangeError: Maximum call stack size exceeded",
    });
    const caught = await h.runOne(
      h.hook(
        "recurse-and-catch",
        handler(
          "const down = (n) => down(n + 1) + 1; try { down(0); } catch (e) { return { notice: e.name }; }",
        ),
      ),
    );
    expect(caught).toMatchObject({ status: "ok", decision: { notice: "RangeError" } });
    await expectStillAnswers(h);
  });

  it("recursion inside toJSON, a getter of the thrown value, and api.log stays in the isolate", async () => {
    const h = await harness();
    const cases = {
      toJSON: "const d = {}; d.toJSON = function again() { return { d: again() }; }; return d;",
      thrownGetter:
        "const e = new Error(); Object.defineProperty(e, 'message', { get: function again() { return again(); } }); throw e;",
      log: "const part = { toString: function again() { return again(); } }; api.log(part); return { notice: 'logged' };",
    };
    const answers = await Promise.all(
      Object.entries(cases).map(([name, body]) => h.runOne(h.hook(name, handler(body)))),
    );
    expect(answers.map((a) => (a.status === "ok" ? a.status : a.code))).toEqual([
      "SANDBOX_ERR_RESULT",
      "SANDBOX_ERR_THREW",
      "ok",
    ]);
    expect(h.logs).toEqual([[expect.stringContaining("log@"), "(a value that cannot be shown as text)"]]);
    await expectStillAnswers(h);
  });
});
