import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "./harness.js";

/** What a fresh V8 context offers (WebAssembly removed on purpose), plus the one name hookyard adds. */
const allowedGlobals = new Set(
  "Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError globalThis JSON Math Intl ArrayBuffer Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap WeakSet Proxy Reflect FinalizationRegistry WeakRef decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN console SharedArrayBuffer Atomics defineHook".split(
    " ",
  ),
);

describe("process, require and globalThis probes", () => {
  it("the hook's global holds only standard builtins and defineHook: no Node, no isolated-vm, no bridge", async () => {
    const h = await harness();
    const hook = h.hook(
      "globals-probe",
      handler(
        `
        const names = Object.getOwnPropertyNames(globalThis).concat(Object.getOwnPropertySymbols(globalThis).map(String));
        const types = {};
        for (const name of ["process", "require", "module", "exports", "Buffer", "global", "setTimeout", "setImmediate", "fetch", "__dirname", "ivm", "_ivm", "Reference", "bridge", "$0", "settings"]) {
          types[name] = typeof globalThis[name];
        }
        types.evalProcess = eval("typeof process");
        types.functionProcess = Function("return typeof process")();
        types.indirectGlobal = typeof (0, eval)("this").process;
        let dynamicImport;
        try { await import("node:fs"); dynamicImport = "imported"; } catch (error) { dynamicImport = error.message; }
        const nonNative = names.filter((name) => typeof globalThis[name] === "function" && !String(globalThis[name]).includes("[native code]"));
        const hookIdentity = defineHook(ctx) === ctx;
        return { notice: JSON.stringify({ names, types, dynamicImport, nonNative, hookIdentity }) };
        `,
        { async: true },
      ),
    );
    const answer = await h.runOne(hook);
    expect(answer.status).toBe("ok");
    const seen = JSON.parse((answer as { decision: { notice: string } }).decision.notice);
    expect(seen.names.filter((name: string) => !allowedGlobals.has(name))).toEqual([]);
    for (const [name, type] of Object.entries(seen.types)) expect(type, name).toBe("undefined");
    expect(seen.dynamicImport).not.toBe("imported");
    // defineHook is ours and is plain JavaScript: identity, nothing else.
    expect(seen.nonNative).toEqual(["defineHook"]);
    expect(seen.hookIdentity).toBe(true);
    await expectStillAnswers(h);
  });
});
