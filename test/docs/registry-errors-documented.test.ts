import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registryErrorCodes } from "../../registry/errors.js";

const apiDoc = fileURLToPath(new URL("../../docs/registry/api.md", import.meta.url));

/** Codes that head a row of a table: "| `REG_ERR_X` | meaning | what to do |". */
async function documentedCodes(): Promise<string[]> {
  const text = await readFile(apiDoc, "utf8");
  return [...text.matchAll(/^\|\s*`(REG_ERR_[A-Z_]+)`\s*\|[^|\n]+\|[^|\n]+\|\s*$/gm)].map(
    (m) => m[1] as string,
  );
}

describe("docs/registry/api.md", () => {
  it("has a row, with a meaning and a remedy, for every registry error code", async () => {
    const documented = await documentedCodes();
    expect(registryErrorCodes.filter((code) => !documented.includes(code))).toEqual([]);
  });

  it("documents no code the registry does not define, and none twice", async () => {
    const documented = await documentedCodes();
    expect(documented.filter((code) => !(registryErrorCodes as string[]).includes(code))).toEqual([]);
    expect(documented.filter((code, i) => documented.indexOf(code) !== i)).toEqual([]);
  });
});
