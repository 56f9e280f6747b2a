import { describe, expect, it } from "vitest";
import { readWorkspaceConfig } from "../../../runner/load/config.js";
import { tempDir, writeFiles } from "../../helpers/temp.js";

async function configOf(json: string | object) {
  const root = await tempDir();
  await writeFiles(root, { "hookyard.json": json });
  return readWorkspaceConfig(root);
}

const note = { name: "note", engine: "prompt", events: ["turn_before"], text: "Be brief." };

describe("hookyard.json", () => {
  it("is an empty config when the file is missing", async () => {
    const config = await readWorkspaceConfig(await tempDir());
    expect(config.rules).toEqual([]);
    expect(config.overrides.size).toBe(0);
    expect(config.problems).toEqual([]);
  });

  it("is refused as a whole when it is not JSON, naming the file", async () => {
    await expect(configOf('{ "rules": [ }')).rejects.toMatchObject({
      name: "RunnerError",
      code: "RUN_ERR_CONFIG_INVALID",
      message: expect.stringContaining("hookyard.json"),
    });
  });

  it("is refused as a whole when rules is not a list", async () => {
    await expect(configOf({ rules: { note } })).rejects.toMatchObject({
      code: "RUN_ERR_CONFIG_INVALID",
      message: expect.stringMatching(/hookyard\.json.*rules/),
    });
  });

  it("reports each invalid entry by name and still loads the others", async () => {
    const config = await configOf({
      rules: [
        { name: "lint", engine: "python", events: ["tool_before"], script: "lint.py" },
        note,
        { name: "guard", engine: "command", events: ["tool_before"] },
        { name: "welcome", engine: "prompt", events: ["session_start"], text: "hi" },
        { engine: "prompt", events: ["notify"], text: "nameless" },
      ],
    });
    expect(config.rules.map((r) => r.name)).toEqual(["note"]);
    expect(config.problems.map((p) => p.name)).toEqual(["lint", "guard", "welcome", "rules[4]"]);
    const [lint, guard, welcome, nameless] = config.problems.map((p) => p.message);
    expect(lint).toMatch(/rules\[0\].*engine/);
    expect(guard).toMatch(/rules\[2\].*command/);
    expect(welcome).toMatch(/rules\[3\].*events/);
    expect(nameless).toMatch(/rules\[4\].*name/);
  });

  it("keeps the first of two entries with the same name and reports the second", async () => {
    const config = await configOf({ rules: [note, { ...note, text: "Be verbose." }] });
    expect(config.rules).toHaveLength(1);
    expect(config.rules[0]).toMatchObject({ name: "note", text: "Be brief." });
    expect(config.problems).toMatchObject([
      {
        name: "note",
        code: "RUN_ERR_CONFIG_INVALID",
        file: expect.stringMatching(/hookyard\.json$/),
        message: expect.stringContaining('a hook named "note" is already defined'),
      },
    ]);
  });

  it("reads per-hook overrides and reports one with an unknown key", async () => {
    const config = await configOf({
      hooks: {
        "audit-log": { priority: 5, enabled: false },
        guard: { priority: 10, colour: "red" },
      },
    });
    expect(config.overrides.get("audit-log")).toEqual({ priority: 5, enabled: false });
    expect(config.overrides.has("guard")).toBe(false);
    expect(config.problems).toMatchObject([
      {
        name: "guard",
        code: "RUN_ERR_CONFIG_INVALID",
        file: expect.stringMatching(/hookyard\.json$/),
        message: expect.stringMatching(/hooks\.guard.*colour/),
      },
    ]);
  });
});
