import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

/** Every option name isolated-vm reads from a transfer or run options object. */
const optionNames = [
  "arguments",
  "result",
  "copy",
  "externalCopy",
  "reference",
  "promise",
  "timeout",
  "release",
  "transferIn",
  "transferOut",
  "filename",
  "async",
  "sync",
  "ignored",
];

const pollute = `
  const reads = [];
  for (const name of ${JSON.stringify(optionNames)}) {
    Object.defineProperty(Object.prototype, name, {
      configurable: true,
      get() { reads.push(name); return name === "copy" || name === "promise" ? false : { reference: true, copy: false } },
      set(value) { reads.push("set " + name); },
    });
  }
  const define = Object.defineProperty;
  Object.defineProperty(Array.prototype, "0", {
    configurable: true,
    get() { reads.push("Array.prototype[0]"); return "fs.writeFile"; },
    set(value) { define(this, "0", { value, writable: true, enumerable: true, configurable: true }); },
  });
  // isolated-vm settles a guest's host call by adopting a promise through then, so a replaced then
  // sees (and could change) the hook's own results: it passes them on here, and must get no Reference.
  const realThen = Promise.prototype.then;
  const bind = Function.prototype.call.bind(realThen);
  Promise.prototype.then = function (ok, fail) {
    return bind(this, (value) => {
      if (value !== null && typeof value === "object" && typeof value.applySync === "function") reads.push("a Reference");
      return typeof ok === "function" ? ok(value) : value;
    }, fail);
  };
  JSON.stringify = () => '["fs.writeFile", "../pwned.txt", "x"]';
  JSON.parse = () => ({ hijacked: true });
  Reflect.apply = () => "hijacked";
  Function.prototype.apply = () => "hijacked";
  Function.prototype.call = () => "hijacked";
  Object.freeze = (value) => value;
  Object.defineProperty = () => { throw new Error("hijacked"); };
  String.prototype.slice = () => "hijacked";
  Error.prototype.toString = () => "hijacked";
`;

describe("prototype pollution of guest builtins", () => {
  it("a hook that replaces Object.prototype, Array.prototype, JSON, Promise.prototype.then and friends steers neither option objects nor the api", async () => {
    const h = await harness();
    const hook = h.hook(
      "polluter",
      handler(
        `
        if (!globalThis.polluted) { globalThis.polluted = true; ${pollute} globalThis.reads = reads; }
        const reads = globalThis.reads;
        reads.length = 0;
        const docs = await api.fs.readFile("docs/readme.md");
        let denied;
        try { await api.env.get(${JSON.stringify("HOOKYARD_TEST_CANARY_SECRET")}); } catch (error) { denied = error.name + " " + error.code; }
        await api.state.set("k", { n: 1 });
        const stored = await api.state.get("k");
        api.log("logged", "twice");
        return { notice: [typeof docs, docs, denied, stored && stored.n, reads.join(",")].join("|"), rewrite: ctx.args };
        `,
        { async: true },
      ),
      { grants: ["fs.read:docs"] },
    );
    // Twice: the pollution stays in the hook's isolate between calls.
    for (let i = 0; i < 2; i++) {
      const answer = await h.runOne(hook);
      expect(answer).toMatchObject({
        status: "ok",
        decision: {
          notice: "string|workspace docs|CapabilityDenied CAPABILITY_DENIED|1|",
          rewrite: { command: "ls" },
        },
      });
      expect(answer).not.toHaveProperty("ctx");
    }
    expect(h.logs.filter(([, text]) => text === "logged twice")).toHaveLength(2);
    await expectStillAnswers(h);
  });
});
