import { afterEach, describe, expect, it } from "vitest";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { type SandboxedHook, sandboxedHook } from "../../../runner/testing.js";
import { toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace } from "../../helpers/temp.js";

const open: Array<Hooks | SandboxedHook> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** A hook that reports its config and whether it could change it. */
const configReporter = `
import { defineHook } from "hookyard";
export default defineHook({
  name: "reporter",
  on: {
    tool_before(ctx, api) {
      let changed = "no";
      try {
        (api.config as any).allow.push("rm -rf /");
        (api.config as any).limit = 0;
        changed = "yes";
      } catch {
        changed = "refused";
      }
      return { notice: JSON.stringify(api.config) + " changed=" + changed };
    },
  },
});
`;

describe("a hook's config from hookyard.json (api.config)", () => {
  it("reaches a workspace hook read-only, the same on every call", async () => {
    const root = await workspace({
      ".hookyard/hooks/reporter.ts": configReporter,
      "hookyard.json": { hooks: { reporter: { config: { allow: ["ls"], limit: 3 } } } },
    });
    const hooks = await loadHooks({ cwd: root, logger: recordingLogger() });
    open.push(hooks);
    for (let call = 0; call < 2; call++) {
      const outcome = await hooks.dispatch(
        "tool_before",
        toolBefore({ tool: "bash", args: { command: "ls" } }),
      );
      expect(outcome.notices[0]?.text).toBe('{"allow":["ls"],"limit":3} changed=refused');
    }
  });

  it("reaches a sandboxed hook as the isolate's own frozen copy", async () => {
    const root = await workspace({ "reporter.ts": configReporter });
    const hook = await sandboxedHook(`${root}/reporter.ts`, { root, config: { allow: ["ls"], limit: 3 } });
    open.push(hook);
    for (let call = 0; call < 2; call++) {
      const outcome = await hook.run("tool_before", { tool: "bash", args: { command: "ls" } });
      expect(outcome.notices[0]?.text).toBe('{"allow":["ls"],"limit":3} changed=refused');
    }
  });

  it("is {} when hookyard.json gives none, and a config that is not an object is refused by name", async () => {
    const root = await workspace({
      ".hookyard/hooks/reporter.ts": configReporter,
      "hookyard.json": { hooks: { reporter: { config: ["not", "an", "object"] } } },
    });
    const logger = recordingLogger();
    const hooks = await loadHooks({ cwd: root, logger });
    open.push(hooks);
    expect(hooks.problems.map((p) => [p.name, p.code])).toEqual([["reporter", "RUN_ERR_CONFIG_INVALID"]]);
    expect(hooks.problems[0]?.message).toContain("hooks.reporter.config");
    const plain = await workspace({ ".hookyard/hooks/reporter.ts": configReporter });
    const bare = await loadHooks({ cwd: plain, logger: recordingLogger() });
    open.push(bare);
    const outcome = await bare.dispatch("tool_before", toolBefore({ tool: "bash", args: { command: "ls" } }));
    expect(outcome.notices[0]?.text).toBe("{} changed=refused");
  });
});
