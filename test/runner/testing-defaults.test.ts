import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { points } from "../../core/events.js";
import { type SandboxedHook, sandboxedHook } from "../../runner/testing.js";
import { workspace, writeFiles } from "../helpers/temp.js";

const open: SandboxedHook[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((hook) => hook.close()));
});

/** A hook at every point that reports, as a notice, the ctx fields it was given. */
const reporter = `export default {
  on: Object.fromEntries(${JSON.stringify(points)}.map((point) => [point, (ctx) => ({ notice: Object.keys(ctx).sort().join(",") })])),
};`;

describe("sandboxedHook().run() in an author's test", () => {
  it("runs at every point with an empty ctx: each field the point requires gets a neutral default", async () => {
    const root = await workspace();
    await writeFiles(root, { "src/hook.js": reporter });
    const hook = await sandboxedHook(join(root, "src/hook.js"), { root });
    open.push(hook);
    for (const point of points) {
      const outcome = await hook.run(point, {});
      expect(outcome.runs[0]?.status, point).toBe("ok");
      expect(outcome.notices[0]?.text, point).toContain("sessionId");
    }
  }, 60_000);

  it("keeps what the test gives, and fills only the rest", async () => {
    const root = await workspace();
    await writeFiles(root, {
      "src/hook.js": `export default { on: { tool_after(ctx) { return { notice: ctx.tool + " " + JSON.stringify(ctx.args) + " " + ctx.result + " " + ctx.callId } } } };`,
    });
    const hook = await sandboxedHook(join(root, "src/hook.js"), { root });
    open.push(hook);
    const given = await hook.run("tool_after", { tool: "read", result: "secret" });
    expect(given.notices[0]?.text).toBe("read {} secret call-1");
    const none = await hook.run("tool_after", {});
    expect(none.notices[0]?.text).toBe("bash {}  call-1");
  });
});
