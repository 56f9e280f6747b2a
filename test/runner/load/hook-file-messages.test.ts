import { afterEach, describe, expect, it } from "vitest";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace } from "../../helpers/temp.js";

const open: Hooks[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((hooks) => hooks.close()));
});

async function problemsOf(files: Record<string, string>) {
  const root = await workspace(files);
  const hooks = await loadHooks({ cwd: root, logger: recordingLogger(), prestart: false });
  open.push(hooks);
  return hooks.problems;
}

describe("a workspace hook file with a mistake says which and how to fix it", () => {
  it("names a mistyped point and the point it most likely meant", async () => {
    const [problem] = await problemsOf({
      ".hookyard/hooks/guard.ts": `export default { name: "guard", on: { tool_befor() {}, turn_after() {} } };`,
    });
    expect(problem?.code).toBe("RUN_ERR_HOOK_INVALID");
    expect(problem?.message).toContain(
      'on.tool_befor: "tool_befor" is not a point: did you mean tool_before?',
    );
    expect(problem?.message).not.toContain("turn_after:");
  });

  it("names every bad key, and suggests nothing for a name close to no point", async () => {
    const [problem] = await problemsOf({
      ".hookyard/hooks/guard.ts": `export default { name: "guard", on: { toolBefore() {}, whatever() {} } };`,
    });
    expect(problem?.message).toContain(
      'on.toolBefore: "toolBefore" is not a point: did you mean tool_before?',
    );
    expect(problem?.message).toMatch(/on\.whatever: "whatever" is not a point \(the points: agent_before, /);
  });

  it("says a file without a default export has none, and what one looks like", async () => {
    const [problem] = await problemsOf({
      ".hookyard/hooks/guard.ts": `export const hook = { name: "guard", on: { tool_before() {} } };`,
    });
    expect(problem?.code).toBe("RUN_ERR_HOOK_INVALID");
    expect(problem?.message).toContain(
      "it has no default export: a hook file ends with `export default defineHook(",
    );
    expect(problem?.message).not.toContain("received undefined");
  });
});
