import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("returned functions, Promises and Symbols", () => {
  it.each([
    ["a function", "return () => 1;", "the handler returned a function"],
    ["a Symbol", 'return Symbol("x");', "the handler returned a symbol"],
    ["a string", 'return "block";', "the handler returned a string"],
    ["an array", 'return [{ block: "x" }];', "the handler returned an array"],
    ["a Promise of a function", "return Promise.resolve(() => 1);", "the handler returned a function"],
    ["a function inside the decision", "return { block: () => 1 };", 'its field "block" is a function'],
    ["a Symbol inside the decision", 'return { notice: Symbol("x") };', 'its field "notice" is a symbol'],
    ["a BigInt", "return { notice: 1n };", "BigInt"],
    ["a cyclic object", "const d = {}; d.self = d; return d;", "circular"],
    ["a function put into ctx", "ctx.args = { toJSON: () => () => 1 }; return undefined;", "the changed ctx"],
    [
      "a thenable that resolves to a thenable",
      "return { then(ok) { ok({ then(ok2) { ok2(() => 1); } }); } };",
      "function",
    ],
  ])("%s is refused as SANDBOX_ERR_RESULT", async (_name, body, message) => {
    const h = await harness();
    const answer = await h.runOne(h.hook("returns", handler(body)));
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_RESULT" });
    expect((answer as { message: string }).message).toContain(message);
    await expectStillAnswers(h);
  });

  it("a Promise of a decision is awaited in the isolate", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook("promise", handler("return new Promise((resolve) => resolve({ notice: 'later' }));")),
    );
    expect(answer).toMatchObject({ status: "ok", decision: { notice: "later" } });
  });

  it("a rejected Promise is the hook's own failure, with its message", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook("rejects", handler('return Promise.reject(new TypeError("nope"));')),
    );
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_THREW", message: "TypeError: nope" });
  });
});
