import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cliErrorCodes } from "../../cli/errors.js";
import { runnerErrorCodes } from "../../core/errors.js";
import { packageErrorCodes } from "../../package/errors.js";
import { tarballErrorCodes } from "../../package/tarball/errors.js";

const errorsDoc = fileURLToPath(new URL("../../docs/errors.md", import.meta.url));
// cliErrorCodes holds the CLI's own codes and those of the package client and the adapters, which it presents.
const codes: string[] = [...runnerErrorCodes, ...cliErrorCodes, ...packageErrorCodes, ...tarballErrorCodes];

/** Codes that head a row of a table in docs/errors.md: "| `CODE` | meaning | what to do |". */
async function documentedCodes(): Promise<string[]> {
  const text = await readFile(errorsDoc, "utf8");
  return [...text.matchAll(/^\|\s*`([A-Z]+_ERR_[A-Z_]+)`\s*\|/gm)].map((m) => m[1] as string);
}

describe("docs/errors.md", () => {
  it("has a row for every runner, CLI, client, adapter, package and tarball error code", async () => {
    const documented = await documentedCodes();
    const missing = codes.filter((code) => !documented.includes(code));
    expect(missing).toEqual([]);
  });

  it("gives every code a meaning and a remedy", async () => {
    const text = await readFile(errorsDoc, "utf8");
    // A cell may hold an escaped pipe (`a\|b`).
    const cell = String.raw`((?:[^|\n]|\\\|)*)`;
    const row = new RegExp(String.raw`^\|\s*\x60([A-Z]+_ERR_[A-Z_]+)\x60\s*\|${cell}\|${cell}\|\s*$`, "gm");
    const rows = [...text.matchAll(row)];
    const incomplete = rows.filter((m) => !m[2]?.trim() || !m[3]?.trim()).map((m) => m[1]);
    expect(incomplete).toEqual([]);
    expect(rows.map((m) => m[1]).sort()).toEqual((await documentedCodes()).sort());
  });

  it("documents no code that the code base does not define, and none twice", async () => {
    const documented = await documentedCodes();
    expect(documented.filter((code) => !codes.includes(code))).toEqual([]);
    expect(documented.filter((code, i) => documented.indexOf(code) !== i)).toEqual([]);
  });
});
