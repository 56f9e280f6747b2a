import { describe, expect, it } from "vitest";
import { CtxJournal } from "../../../runner/chain/journal.js";

interface Ctx {
  sessionId: string;
  args: { command: string; env: Record<string, string> };
  messages: Array<{ role: string; content: string }>;
  [field: string]: unknown;
}

function sample(): Ctx {
  return {
    sessionId: "s1",
    args: { command: "ls", env: { PATH: "/usr/bin" } },
    messages: [{ role: "user", content: "one" }],
  };
}

/** One operation per proxy trap a view of plain data can reach (apply and construct cannot). */
const traps: Record<string, (view: object) => unknown> = {
  get: (view) => Reflect.get(view, "x"),
  set: (view) => Reflect.set(view, "x", 1),
  deleteProperty: (view) => Reflect.deleteProperty(view, "x"),
  has: (view) => Reflect.has(view, "x"),
  ownKeys: (view) => Reflect.ownKeys(view),
  getOwnPropertyDescriptor: (view) => Reflect.getOwnPropertyDescriptor(view, "x"),
  defineProperty: (view) => Reflect.defineProperty(view, "x", { value: 1, configurable: true }),
  getPrototypeOf: (view) => Reflect.getPrototypeOf(view),
  setPrototypeOf: (view) => Reflect.setPrototypeOf(view, null),
  isExtensible: (view) => Reflect.isExtensible(view),
  preventExtensions: (view) => Reflect.preventExtensions(view),
};

/** What a revoked Proxy throws for the same operation. */
function revokedProxyError(operation: (view: object) => unknown): unknown {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  try {
    operation(proxy);
  } catch (error) {
    return error;
  }
  throw new Error("a revoked Proxy did not throw");
}

/** The view of the ctx and views nested at several depths, reached before the revoke. */
function views(journal: CtxJournal<Ctx>): Record<string, object> {
  const { view } = journal;
  const described = Object.getOwnPropertyDescriptor(view, "args")?.value as object;
  return {
    root: view,
    object: view.args,
    deeper: view.args.env,
    array: view.messages,
    "array element": view.messages[0] as object,
    "from a descriptor": described,
  };
}

describe("a revoked CtxJournal view", () => {
  for (const [trap, operation] of Object.entries(traps)) {
    it(`throws on ${trap} like a revoked Proxy, at every depth`, () => {
      const ctx = sample();
      const before = structuredClone(ctx);
      const journal = new CtxJournal(ctx);
      const all = views(journal);
      journal.revoke();
      const expected = revokedProxyError(operation) as TypeError;
      expect(expected).toBeInstanceOf(TypeError);
      for (const [where, view] of Object.entries(all)) {
        let thrown: unknown;
        try {
          operation(view);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${trap} on the ${where} view`).toBeInstanceOf(TypeError);
        expect((thrown as TypeError).message, `${trap} on the ${where} view`).toBe(expected.message);
      }
      expect(ctx).toStrictEqual(before);
      expect(journal.changed).toBe(false);
    });
  }

  it("before the revoke, the forwarding traps answer like the ctx itself", () => {
    const ctx = sample();
    const { view } = new CtxJournal(ctx);
    expect(Reflect.ownKeys(view)).toEqual(Reflect.ownKeys(ctx));
    expect(Object.keys(view.args)).toEqual(["command", "env"]);
    expect("args" in view && !("missing" in view)).toBe(true);
    expect(Object.getPrototypeOf(view.args)).toBe(Object.prototype);
    expect(Object.isExtensible(view.args.env)).toBe(true);
    expect(Array.isArray(view.messages)).toBe(true);
    expect(JSON.parse(JSON.stringify(view))).toEqual(ctx);
  });

  it("a view made after some writes is revoked too, and rollback still undoes them", () => {
    const ctx = sample();
    const before = structuredClone(ctx);
    const journal = new CtxJournal(ctx);
    journal.view.args.env.HOME = "/root";
    journal.view.messages.push({ role: "assistant", content: "two" });
    const late = journal.view.messages[1] as object;
    const args = journal.view.args;
    journal.revoke();
    expect(() => Reflect.get(late, "content")).toThrow(TypeError);
    expect(() => Reflect.has(args, "env")).toThrow(TypeError);
    journal.rollback();
    expect(ctx).toStrictEqual(before);
  });

  it("revoking one journal leaves another journal's view of the same ctx working", () => {
    const ctx = sample();
    const first = new CtxJournal(ctx);
    const second = new CtxJournal(ctx);
    const firstArgs = first.view.args;
    first.revoke();
    expect(() => firstArgs.command).toThrow(TypeError);
    second.view.args.command = "pwd";
    expect(ctx.args.command).toBe("pwd");
    expect([...second.touched]).toEqual(["args"]);
  });
});
