import { describe, expect, it } from "vitest";
import { handler, harness } from "../harness.js";

/**
 * A hook's changed copy of ctx comes back (as a rewrite) exactly when its JSON differs from the ctx
 * it was given. The sandbox first compares the copy with what it held before the call, to skip the
 * JSON for hooks that change nothing; whatever a hook does to its copy, the outcome must be the
 * one the JSON gives.
 */
const given = { tool: "bash", args: { command: "ls", list: [1, 2], nested: { deep: 1 } }, callId: "c" };
const ctxJson = JSON.stringify(given);

const changes: [name: string, body: string][] = [
  ["nothing", ""],
  ["a nested value", "ctx.args.nested.deep = 2;"],
  ["a string", 'ctx.args.command = "ls -la";'],
  ["a value set to what it was", "ctx.args.list[0] = 1; ctx.tool = 'ba' + 'sh';"],
  ["an object replaced by an equal copy", "ctx.args = { ...ctx.args };"],
  ["a key moved to the end", "const tool = ctx.tool; delete ctx.tool; ctx.tool = tool;"],
  ["an added key whose value JSON skips", "ctx.args.skipped = undefined; ctx.args.f = () => 1;"],
  ["an array made longer", "ctx.args.list.length = 3;"],
  ["a hole in an array", "delete ctx.args.list[1];"],
  ["a key on an array, which JSON skips", "ctx.args.list.extra = 1;"],
  [
    "a getter giving the same value",
    'Object.defineProperty(ctx.args, "command", { get: () => "ls", enumerable: true });',
  ],
  ["a key made non-enumerable", 'Object.defineProperty(ctx.args, "command", { enumerable: false });'],
  ["a toJSON on a nested object", 'ctx.args.nested.toJSON = () => "flat";'],
  ["a prototype with toJSON", "Object.setPrototypeOf(ctx.args.nested, { toJSON: () => 7 });"],
  ["a boxed string in place of a string", 'ctx.tool = new String("bash");'],
  ["a Proxy in place of an object", "ctx.args.nested = new Proxy(ctx.args.nested, {});"],
];

describe("a hook's changed ctx", () => {
  it.each(changes)("%s: comes back exactly when its JSON differs", async (_name, body) => {
    const copy = JSON.parse(ctxJson);
    new Function("ctx", body)(copy);
    const after = JSON.stringify(copy);
    const h = await harness();
    const answer = await h.runOne(h.hook("changer", handler(body)), { ctxJson });
    expect(answer.status).toBe("ok");
    if (after === ctxJson) expect(answer).not.toHaveProperty("ctx");
    else expect(answer).toMatchObject({ ctx: JSON.parse(after) });
  });

  it("a ctx of many objects is compared as JSON, changed or not", async () => {
    const h = await harness();
    const many = JSON.stringify({ tool: "bash", items: Array.from({ length: 20_000 }, (_, i) => ({ i })) });
    const reader = await h.runOne(h.hook("reader", handler("return { notice: String(ctx.items.length) };")), {
      ctxJson: many,
    });
    expect(reader).toMatchObject({ status: "ok", decision: { notice: "20000" } });
    expect(reader).not.toHaveProperty("ctx");
    const writer = await h.runOne(h.hook("writer", handler("ctx.items[19999].i = -1;")), { ctxJson: many });
    expect((writer as { ctx: { items: { i: number }[] } }).ctx.items[19_999]).toEqual({ i: -1 });
  });

  it("a ctx of many small objects is not copied again to compare it: it would not fit twice", async () => {
    // The comparison must not hold a second copy of such a ctx: 150,000 empty arrays fit in the
    // default 32 MB with one copy, not with two.
    const h = await harness({ limits: { cpuMs: 10_000, wallMs: 20_000 } });
    const ctxJson = JSON.stringify({ tool: "bash", items: Array.from({ length: 150_000 }, () => []) });
    const answer = await h.runOne(
      h.hook("counter", handler("return { notice: String(ctx.items.length) };")),
      {
        ctxJson,
      },
    );
    expect(answer).toMatchObject({ status: "ok", decision: { notice: "150000" } });
  });

  it("a change made after an await on the api is seen too", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook("later", handler('await api.state.get("k"); ctx.args.nested.deep = 3;', { async: true })),
      { ctxJson },
    );
    expect(answer).toMatchObject({ status: "ok", ctx: { args: { nested: { deep: 3 } } } });
  });
});
