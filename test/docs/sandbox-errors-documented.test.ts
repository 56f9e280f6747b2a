import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { brokerErrorCodes } from "../../sandbox/broker/errors.js";
import { sandboxErrorCodes } from "../../sandbox/errors.js";

/** Codes that head a row of a table in a doc: "| `CODE` | …". */
async function documentedCodes(doc: string, pattern: RegExp): Promise<string[]> {
  const text = await readFile(fileURLToPath(new URL(`../../docs/${doc}`, import.meta.url)), "utf8");
  return [...text.matchAll(pattern)].map((m) => m[1] as string);
}

const tables = [
  {
    doc: "sandbox.md",
    codes: sandboxErrorCodes as string[],
    pattern: /^\|\s*`(SANDBOX_ERR_[A-Z_]+)`\s*\|/gm,
  },
  {
    doc: "capabilities.md",
    codes: ["CAPABILITY_DENIED", ...brokerErrorCodes],
    pattern: /^\|\s*`((?:BROKER_ERR_[A-Z_]+)|CAPABILITY_DENIED)`\s*\|/gm,
  },
];

describe.each(tables)("docs/$doc", ({ doc, codes, pattern }) => {
  it("has a row for every code, none the code base lacks, none twice", async () => {
    const documented = await documentedCodes(doc, pattern);
    expect(codes.filter((code) => !documented.includes(code))).toEqual([]);
    expect(documented.filter((code) => !codes.includes(code))).toEqual([]);
    expect(documented.filter((code, i) => documented.indexOf(code) !== i)).toEqual([]);
  });
});
