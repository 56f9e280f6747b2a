import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { commands } from "../../cli/commands/index.js";

const cliDocs = fileURLToPath(new URL("../../docs/cli/", import.meta.url));

describe("docs/cli", () => {
  it("has a page for every command", () => {
    expect(commands.length).toBeGreaterThan(0);
    const missing = commands.map((c) => c.name).filter((name) => !existsSync(`${cliDocs}${name}.md`));
    expect(missing).toEqual([]);
  });
});
