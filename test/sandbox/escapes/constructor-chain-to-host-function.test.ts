import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("constructor chains to the host Function", () => {
  it("every constructor chain a hook can walk ends at the isolate's own Function", async () => {
    const h = await harness();
    const hook = h.hook(
      "constructor-chain",
      handler(
        `
        const reach = (value) => {
          try {
            const F = value.constructor.constructor;
            return { guestFunction: F === Function, process: F("return typeof process")(), require: F("return typeof require")() };
          } catch (error) {
            return { threw: String(error) };
          }
        };
        const denied = await api.fs.readFile(${JSON.stringify(h.canaryFile)}).catch((error) => error);
        const results = {
          ctx: reach(ctx),
          api: reach(api),
          apiFunction: { guestFunction: api.fs.readFile.constructor === Function, process: api.fs.readFile.constructor("return typeof process")() },
          apiPromise: reach(api.state.get("k")),
          hostError: reach(denied),
          hostValue: reach(await api.fs.readdir("docs")),
          vm2: (() => { try { return denied.constructor.constructor("return process")().mainModule; } catch (error) { return error.name; } })(),
          thisOfHandler: typeof this === "object" ? reach(this) : typeof this,
        };
        // A sloppy function called by the bootstrap or a host-facing builtin learns no caller.
        const callers = [];
        const spy = Function("callers", "return function spy() { callers.push(String(spy.caller)); return 'x'; };")(callers);
        api.log({ toString: spy });
        results.callers = callers;
        return { notice: JSON.stringify(results) };
        `,
        { async: true },
      ),
      { grants: ["fs.read:docs"] },
    );
    const answer = await h.runOne(hook);
    expect(answer.status).toBe("ok");
    const results = JSON.parse((answer as { decision: { notice: string } }).decision.notice);
    for (const key of [
      "ctx",
      "api",
      "apiFunction",
      "apiPromise",
      "hostError",
      "hostValue",
      "thisOfHandler",
    ]) {
      expect(results[key], key).toMatchObject({ guestFunction: true, process: "undefined" });
    }
    expect(results.vm2).toBe("ReferenceError");
    expect(results.callers).toEqual(["null"]);
    await expectStillAnswers(h);
  });
});
