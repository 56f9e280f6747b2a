import { describe, expect, it } from "vitest";
import { expectStillAnswers, harness } from "../harness.js";

describe("loading a hook bundle", () => {
  it.each([
    [
      "an import",
      'import fs from "node:fs";\nexport default defineHook({ on: { tool_before() {} } });',
      'the bundle imports "node:fs"',
    ],
    ["a re-export", 'export * from "./other.js";\nexport default {};', 'the bundle imports "./other.js"'],
    ["a syntax error", "export default defineHook({ on: { tool_before() { ", "the bundle does not compile"],
    ["a throw at top level", 'throw new Error("at load");', "the bundle threw while loading: at load"],
    [
      "no default export",
      "export const hook = defineHook({ on: {} });",
      "the bundle has no default export object",
    ],
    [
      "a default export without on",
      "export default defineHook({ name: 'x' });",
      "the default export has no `on` object",
    ],
    [
      "CommonJS",
      "module.exports = { on: {} };",
      "the bundle threw while loading: ReferenceError: module is not defined",
    ],
  ])("a bundle with %s is refused with SANDBOX_ERR_COMPILE", async (_name, source, message) => {
    const h = await harness();
    const hook = h.hook("bad-bundle", source);
    const answer = await h.runOne(hook);
    expect(answer).toMatchObject({ status: "error", code: "SANDBOX_ERR_COMPILE" });
    expect((answer as { message: string }).message).toContain(message);
    // The same bytes fail the same way without being compiled again, and it is not an isolate failure.
    expect(await h.runOne(hook)).toEqual({ ...answer, ms: expect.any(Number) });
    expect(h.sandbox.quarantined.size).toBe(0);
    await expectStillAnswers(h);
  });

  it("compiles exactly the bytes given, as UTF-8, with defineHook as an identity global", async () => {
    const h = await harness();
    const source =
      'const same = defineHook({ on: { tool_before() { return { notice: "héllo ✓ " + (same === hook) }; } } });\nconst hook = same;\nexport default same;';
    const answer = await h.runOne(h.hook("utf8", source));
    expect(answer).toMatchObject({ status: "ok", decision: { notice: "héllo ✓ true" } });
  });

  it("a hook without a handler for the point answers SANDBOX_ERR_NO_HANDLER", async () => {
    const h = await harness();
    const source = "export default defineHook({ on: { tool_after() {} } });";
    expect(await h.runOne(h.hook("other-point", source))).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_NO_HANDLER",
      message: "the hook has no handler for tool_before",
    });
    // Declared points are checked before the isolate is asked.
    expect(await h.runOne(h.hook("undeclared", source, { points: ["tool_after"] }))).toMatchObject({
      status: "error",
      code: "SANDBOX_ERR_NO_HANDLER",
      message: 'hook "undeclared" is not declared for tool_before',
    });
  });
});
