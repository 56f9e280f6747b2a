import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

/** A module exporting `loop`, a function that branches to itself forever. */
const loopModule = [
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 8, 1, 4, 108, 111, 111, 112, 0, 0, 10, 9, 1,
  7, 0, 3, 64, 12, 0, 11, 11,
];

describe("WebAssembly", () => {
  it("is not reachable: its memory would bypass the isolate's memory limit", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook(
        "wasm",
        handler(`
          const found = [typeof WebAssembly, typeof globalThis.WebAssembly, Object.getOwnPropertyNames(globalThis).includes("WebAssembly")];
          try { eval("WebAssembly"); found.push("eval found it"); } catch (error) { found.push(error.name); }
          return { notice: found.join(" ") };
        `),
      ),
    );
    expect(answer).toMatchObject({
      status: "ok",
      decision: { notice: "undefined undefined false ReferenceError" },
    });
    await expectStillAnswers(h);
  });

  it("a hook that runs a wasm module fails as its own error, and the sandbox carries on", async () => {
    const h = await harness();
    const answer = await h.runOne(
      h.hook(
        "wasm-loop",
        handler(
          `new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(${JSON.stringify(loopModule)}))).exports.loop();`,
        ),
      ),
    );
    expect(answer).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_THREW",
      message: "ReferenceError: WebAssembly is not defined",
    });
    await expectStillAnswers(h);
  });
});
