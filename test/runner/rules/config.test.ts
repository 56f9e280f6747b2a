import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolBefore, turnBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

describe("rules: declared in hookyard.json, and set like any hook", () => {
  it("a rules hook reads another folder, at the points its events name only", async () => {
    const { root, hooks, logger } = await rulesWorkspace({
      "hookyard.json": {
        rules: [{ name: "policies", engine: "rules", dir: "policies", events: ["tool_before"] }],
      },
      "policies/no-curl.md": ruleFile("event: bash\naction: block\npattern: curl", "No network."),
      "policies/prompt.md": ruleFile("event: prompt\naction: block\npattern: .", "Never runs here."),
    });
    expect(hooks.problems).toEqual([]);
    const listed = hooks.list().filter((chain) => chain.hooks.some((h) => h.name === "policies"));
    expect(listed.map((chain) => chain.point)).toEqual(["tool_before"]);
    expect(listed[0]?.hooks.find((h) => h.name === "policies")).toMatchObject({
      origin: "workspace",
      engine: "rules",
      source: "policies/*.md",
    });
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "curl x" } }));
    expect(outcome.blockedBy).toEqual({ hook: "policies", reason: "[no-curl] No network." });
    expect((await hooks.dispatch("turn_before", turnBefore("hi"))).verdict).toBe("allow");

    // This folder was not read at load: its problems are reported when the hook first runs.
    await writeFile(join(root, "policies/broken.md"), ruleFile("event: bash\naction: maybe"));
    await hooks.dispatch("tool_before", toolBefore());
    expect(logger.infos).toEqual([
      expect.stringMatching(/^\[policies\] RUN_ERR_HOOK_INVALID: .*broken\.md: action: /),
    ]);
  });

  it("hooks.rules in hookyard.json turns the .hookyard/rules folder off, or moves it in the chain", async () => {
    const rule = { ".hookyard/rules/r.md": ruleFile("event: bash\naction: block\npattern: .", "r") };
    const off = await rulesWorkspace({ ...rule, "hookyard.json": { hooks: { rules: { enabled: false } } } });
    expect((await off.hooks.dispatch("tool_before", toolBefore())).verdict).toBe("allow");

    const early = await rulesWorkspace({ ...rule, "hookyard.json": { hooks: { rules: { priority: 5 } } } });
    const chain = early.hooks.list().find((c) => c.point === "tool_before")?.hooks ?? [];
    expect(chain.find((h) => h.name === "rules")?.priority).toBe(5);
  });

  it("an invalid rules entry in hookyard.json is a config problem and fails closed", async () => {
    const { hooks } = await rulesWorkspace({
      "hookyard.json": { rules: [{ name: "x", engine: "rules", dir: "p", format: "yaml" }] },
      ".hookyard/rules/r.md": ruleFile("event: bash\npattern: .", "r"),
    });
    expect(hooks.problems).toEqual([expect.objectContaining({ message: expect.stringContaining("format") })]);
    // The entry's points are unknown, so it stands in at every blockable one; elsewhere the rest runs.
    expect((await hooks.dispatch("tool_before", toolBefore())).blockedBy?.hook).toBe("x");
  });
});
