import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cliErrorCodes } from "../../cli/errors.js";
import { runnerErrorCodes } from "../../core/errors.js";

const errorsDoc = fileURLToPath(new URL("../../docs/errors.md", import.meta.url));
const codes: string[] = [...runnerErrorCodes, ...cliErrorCodes];

/** Codes that head a row of a table in docs/errors.md: "| `CODE` | meaning | what to do |". */
async function documentedCodes(): Promise<string[]> {
  const text = await readFile(errorsDoc, "utf8");
  return [...text.matchAll(/^\|\s*`([A-Z]+_ERR_[A-Z_]+)`\s*\|/gm)].map((m) => m[1] as string);
}

describe("docs/errors.md", () => {
  it("has a row for every runner and CLI error code", async () => {
    const documented = await documentedCodes();
    const missing = codes.filter((code) => !documented.includes(code));
    expect(missing).toEqual([]);
  });

  it("documents no code that the code base does not define, and none twice", async () => {
    const documented = await documentedCodes();
    expect(documented.filter((code) => !codes.includes(code))).toEqual([]);
    expect(documented.filter((code, i) => documented.indexOf(code) !== i)).toEqual([]);
  });
});
