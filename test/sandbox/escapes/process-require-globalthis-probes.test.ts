import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

/**
 * What a fresh V8 context offers on every supported line (WebAssembly removed on purpose): the
 * ECMAScript built-ins, Intl, and V8's own console (no Node code behind it), plus the one name
 * hookyard adds.
 */
const everyLine =
  "Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError globalThis JSON Math Intl ArrayBuffer Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap WeakSet Proxy Reflect FinalizationRegistry WeakRef decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN console SharedArrayBuffer Atomics defineHook";

/**
 * The standard built-ins each newer V8 line adds to a fresh context, by Node major (read from a
 * bare isolated-vm context on each pinned Node): Iterator helpers (ES2025, V8 12.x on Node 22);
 * Float16Array (ES2025) and explicit resource management's DisposableStack, AsyncDisposableStack
 * and SuppressedError (V8 13.x on Node 24); Temporal (V8 14.x on Node 26). A line missing here is
 * one nobody has looked at: the test says so rather than guess.
 */
const addedByLine: Record<string, string> = {
  "22": "Iterator",
  "24": "Iterator Float16Array DisposableStack AsyncDisposableStack SuppressedError",
  "26": "Iterator Float16Array DisposableStack AsyncDisposableStack SuppressedError Temporal",
};

function allowedGlobals(): Set<string> {
  const major = process.versions.node.split(".")[0] as string;
  const added = addedByLine[major];
  if (added === undefined) {
    throw new Error(`no list of standard globals for Node ${major}: list what its V8 adds in addedByLine`);
  }
  return new Set(`${everyLine} ${added}`.split(" "));
}

describe("process, require and globalThis probes", () => {
  it("the hook's global holds only standard builtins and defineHook: no Node, no isolated-vm, no bridge", async () => {
    const h = await harness();
    const hook = h.hook(
      "globals-probe",
      handler(
        `
        const names = Object.getOwnPropertyNames(globalThis).concat(Object.getOwnPropertySymbols(globalThis).map(String));
        const types = {};
        for (const name of ["process", "require", "module", "exports", "Buffer", "global", "setTimeout", "setImmediate", "fetch", "__dirname", "ivm", "_ivm", "Reference", "bridge", "bootstrap", "$0", "settings"]) {
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
    const allowed = allowedGlobals();
    expect(seen.names.filter((name: string) => !allowed.has(name))).toEqual([]);
    for (const [name, type] of Object.entries(seen.types)) expect(type, name).toBe("undefined");
    expect(seen.dynamicImport).not.toBe("imported");
    // defineHook is ours and is plain JavaScript: identity, nothing else.
    expect(seen.nonNative).toEqual(["defineHook"]);
    expect(seen.hookIdentity).toBe(true);
    await expectStillAnswers(h);
  });
});
