import { describe, expect, it } from "vitest";
import { CtxJournal } from "../../../runner/chain/journal.js";

interface Message {
  role: string;
  content: string;
  meta: { tags: string[]; from?: Message };
}

interface Ctx {
  sessionId: string;
  prompt: string;
  args: { command: string; env: Record<string, string>; flags: string[] };
  messages: Message[];
  [field: string]: unknown;
}

function at<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`nothing at ${index}`);
  return item;
}

function sample(): Ctx {
  return {
    sessionId: "s1",
    prompt: "hello",
    args: { command: "ls", env: { PATH: "/usr/bin", HOME: "/root" }, flags: ["-l", "-a", "-h"] },
    messages: [
      { role: "user", content: "one", meta: { tags: ["a"] } },
      { role: "assistant", content: "two", meta: { tags: [] } },
      { role: "user", content: "three", meta: { tags: [] } },
    ],
  };
}

describe("CtxJournal", () => {
  it("writes through the view reach the ctx itself", () => {
    const ctx = sample();
    const journal = new CtxJournal(ctx);
    journal.view.args.flags.push("-R");
    journal.view.prompt = "changed";
    expect(ctx.args.flags).toEqual(["-l", "-a", "-h", "-R"]);
    expect(ctx.prompt).toBe("changed");
    expect(journal.changed).toBe(true);
  });

  it("records the top-level field of every write, however deep", () => {
    const journal = new CtxJournal(sample());
    journal.view.args.env.HOME = "/tmp";
    at(journal.view.messages, 0).meta.tags.push("b");
    expect([...journal.touched].sort()).toEqual(["args", "messages"]);
  });

  it("a view that was only read reports no change", () => {
    const journal = new CtxJournal(sample());
    JSON.stringify(journal.view);
    void [...journal.view.messages].map((m) => m.content);
    delete journal.view.args.env.MISSING;
    expect(journal.changed).toBe(false);
    expect(journal.touched.size).toBe(0);
  });

  it("rollback restores nested objects and arrays exactly", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    const v = journal.view;
    v.args.flags.push("-R");
    v.args.flags.splice(0, 2, "--long");
    v.args.flags.sort();
    delete (v.args.env as Partial<Record<string, string>>).PATH;
    v.args.env.EXTRA = "1";
    Object.defineProperty(v.args, "hidden", { value: 1, enumerable: false, configurable: true });
    Object.defineProperty(v.args.env, "HOME", { value: "/x", writable: false, enumerable: true });
    v.messages = [...v.messages, { role: "user", content: "four", meta: { tags: [] } }];
    const first = at(v.messages, 0);
    first.content = "rewritten";
    first.meta.tags.unshift("z");
    v.messages.shift();
    v.added = { deep: [1, 2] };
    journal.rollback();

    expect(ctx).toStrictEqual(before);
    expect(Object.getOwnPropertyNames(ctx.args)).toEqual(["command", "env", "flags"]);
    expect(Object.getOwnPropertyDescriptor(ctx.args.env, "HOME")).toMatchObject({ writable: true });
    expect(journal.changed).toBe(false);
    expect(journal.touched.size).toBe(0);
  });

  it("rollback brings back the elements that setting an array's length cut off", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    journal.view.messages.length = 0;
    journal.view.args.flags.length = 1;
    journal.rollback();
    expect(ctx).toStrictEqual(before);
    expect(0 in ctx.messages).toBe(true);
  });

  it("refuses changes that rollback could not undo, and they change nothing", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    const v = journal.view;
    expect(() => Object.defineProperty(v.args, "fixed", { value: 1, enumerable: true })).toThrow(TypeError);
    expect(() => Object.defineProperty(v.args, "command", { configurable: false })).toThrow(TypeError);
    expect(() => Object.defineProperty(v.args.flags, "length", { writable: false })).toThrow(TypeError);
    expect(() => Object.freeze(v.messages)).toThrow(TypeError);
    expect(() => Object.preventExtensions(v.args.env)).toThrow(TypeError);
    journal.rollback();
    expect(ctx).toStrictEqual(before);
    expect(Object.isExtensible(ctx.messages)).toBe(true);
    expect(Object.isExtensible(ctx.args.env)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(ctx.args, "command")?.configurable).toBe(true);
  });

  it("writes through an object cloned from property descriptors are journaled and rolled back", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    const clone: Ctx = Object.create(Object.prototype, Object.getOwnPropertyDescriptors(journal.view));
    clone.args.command = "rm -rf /";
    expect([...journal.touched]).toEqual(["args"]);
    journal.rollback();
    expect(ctx).toStrictEqual(before);
  });

  it("refuses prototype changes through the view", () => {
    const ctx = sample();
    const journal = new CtxJournal(ctx);
    const env = journal.view.args.env;
    expect(() => Object.setPrototypeOf(env, { polluted: true })).toThrow(TypeError);
    expect(Reflect.set(env, "__proto__", { polluted: true })).toBe(false);
    expect(Object.getPrototypeOf(ctx.args.env)).toBe(Object.prototype);
  });

  it("after revoke, the view and every nested view it handed out throw when touched", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    const { view } = journal;
    const env = view.args.env;
    const message = at(view.messages, 1);
    journal.revoke();
    expect(() => {
      view.prompt = "late";
    }).toThrow(TypeError);
    expect(() => {
      env.HOME = "/late";
    }).toThrow(TypeError);
    expect(() => message.content).toThrow(TypeError);
    expect(ctx).toStrictEqual(before);
  });

  it("rollback still works after the view was revoked", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    journal.view.args.flags.pop();
    journal.revoke();
    journal.rollback();
    expect(ctx).toStrictEqual(before);
  });

  it("stores a value built from views as plain data that outlives the revoked views", () => {
    const ctx = sample();
    const journal = new CtxJournal(ctx);
    const v = journal.view;
    v.messages = [
      ...v.messages,
      { role: "user", content: "four", meta: { tags: [], from: at(v.messages, 0) } },
    ];
    journal.revoke();
    expect(ctx.messages.map((m) => m.content)).toEqual(["one", "two", "three", "four"]);
    expect(at(ctx.messages, 3).meta.from?.content).toBe("one");
    expect(at(ctx.messages, 3).meta.from).toBe(ctx.messages[0]);
  });

  it("frozen nested objects stay readable through the view", () => {
    const ctx = sample();
    ctx.frozen = Object.freeze({ list: Object.freeze([Object.freeze({ a: 1 })]), text: "x" });
    const journal = new CtxJournal(ctx);
    const frozen = journal.view.frozen as { list: ReadonlyArray<{ a: number }>; text: string };
    expect(frozen.list[0]?.a).toBe(1);
    expect(frozen.text).toBe("x");
    expect(JSON.parse(JSON.stringify(journal.view.frozen))).toEqual({ list: [{ a: 1 }], text: "x" });
  });

  it("a write to a frozen object through the view throws and changes nothing", () => {
    const ctx = sample();
    ctx.frozen = Object.freeze({ text: "x" });
    const journal = new CtxJournal(ctx);
    expect(() => {
      (journal.view.frozen as { text: string }).text = "y";
    }).toThrow(TypeError);
    journal.rollback();
    expect(ctx.frozen).toEqual({ text: "x" });
  });
});
