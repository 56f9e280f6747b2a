import { describe, expect, it } from "vitest";
import { expectStillAnswers, handler, harness } from "../harness.js";

describe("Error.prepareStackTrace and CallSite tricks", () => {
  it("no call site, across the bootstrap and the host bridge, hands over a host object or a host path", async () => {
    const h = await harness();
    const hook = h.hook(
      "callsites",
      handler(
        `
        const frames = [];
        const inspect = (value) => {
          if (value === undefined || value === null) return "none";
          try {
            const F = value.constructor.constructor;
            return F === Function && F("return typeof process")() === "undefined" && typeof value.applySync !== "function" ? "guest" : "HOST";
          } catch { return "unreadable"; }
        };
        Error.prepareStackTrace = (error, sites) => {
          for (const site of sites) frames.push({ this: inspect(site.getThis()), fn: inspect(site.getFunction()), file: String(site.getFileName()), name: String(site.getFunctionName()) });
          return "stack";
        };
        void new Error("in the handler").stack;
        try { await api.fs.readFile("../escape.txt"); } catch (error) { void error.stack; }
        await api.state.get("k").then(() => void new Error("after a host call").stack);
        api.log({ toString() { return new Error("inside api.log").stack; } });
        return { notice: JSON.stringify(frames) };
        `,
        { async: true },
      ),
    );
    const answer = await h.runOne(hook);
    expect(answer.status).toBe("ok");
    const frames = JSON.parse((answer as { decision: { notice: string } }).decision.notice) as Record<
      string,
      string
    >[];
    expect(frames.length).toBeGreaterThan(3);
    for (const frame of frames) {
      expect(frame.this).not.toBe("HOST");
      expect(frame.fn).not.toBe("HOST");
      expect(frame.file).not.toMatch(/\/|node_modules|dist/);
    }
    // The bootstrap's own frames are strict: they give away neither `this` nor the function.
    const bootstrapFrames = frames.filter((frame) => frame.file === "hookyard:bootstrap");
    expect(bootstrapFrames.length).toBeGreaterThan(0);
    for (const frame of bootstrapFrames) expect(frame).toMatchObject({ this: "none", fn: "none" });
    await expectStillAnswers(h);
  });

  it("a prepareStackTrace that never returns does not hang the host when the hook throws", async () => {
    const h = await harness();
    const hook = h.hook(
      "stack-trap",
      handler(`Error.prepareStackTrace = () => { for (;;) {} }; throw new Error("boom");`),
    );
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_THREW", message: "boom" });
    // Its own time, not the sandbox process's start-up: stopped long before its wallMs (5 s).
    expect(answer.ms).toBeLessThan(4_000);
    await expectStillAnswers(h);
  });
});
