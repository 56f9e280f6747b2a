import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { paxHeader, rawEntry, rawTgz } from "../../helpers/raw-tar.js";

const file = (name: string, data = "x") => rawEntry({ name, data });
const folder = (name: string) => rawEntry({ name, type: "5", mode: 0o755 });
/** A file named through a pax header, so the name can be any Unicode spelling. */
const paxFile = (name: string) => Buffer.concat([paxHeader({ path: name }), file("package/placeholder")]);

describe("paths that name the same file twice", () => {
  it("a duplicate entry replacing a file is refused, not resolved in favour of either", async () => {
    const tgz = rawTgz(
      file("package/dist/hook.js", "reviewed code"),
      file("package/dist/hook.js", "evil code"),
    );
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_DUPLICATE",
      path: "package/dist/hook.js",
      message: expect.stringContaining("appears twice"),
    });
  });

  it("a folder entry replacing a file of the same name is a duplicate", async () => {
    const tgz = rawTgz(file("package/a"), folder("package/a/"));
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_DUPLICATE" });
  });

  it("the same folder listed twice is a duplicate", async () => {
    const tgz = rawTgz(folder("package/lib/"), folder("package/lib/"));
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_DUPLICATE" });
  });

  it("NFC/NFD twins (é as one code point and as e + accent) are refused", async () => {
    const tgz = rawTgz(paxFile("package/caf\u00e9.js"), paxFile("package/cafe\u0301.js"));
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_COLLISION",
      path: "package/cafe\u0301.js",
      message: expect.stringContaining("case-insensitive or Unicode-normalising"),
    });
    // The two spellings print differently: the combining accent is written out.
    await expect(inspectTarball(tgz)).rejects.toThrow(
      'entry "package/cafe\\u{301}.js" and "package/caf\u00e9.js" are the same path',
    );
  });

  it("case twins are refused", async () => {
    const tgz = rawTgz(file("package/README.md"), file("package/readme.md"));
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_COLLISION" });
  });

  it("case twins among folders are refused even when the files inside differ", async () => {
    const tgz = rawTgz(file("package/Lib/a.js"), file("package/lib/b.js"));
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_COLLISION",
      path: "package/lib",
    });
  });

  it.each([
    ["the Kelvin sign and k", "package/\u212aey.pem", "package/key.pem"],
    ["ß and SS", "package/stra\u00dfe.js", "package/STRASSE.js"],
    ["final and medial sigma", "package/x\u03c2", "package/x\u03c3"],
  ])("twins under Unicode case folding (%s) are refused", async (_, first, second) => {
    await expect(inspectTarball(rawTgz(paxFile(first), paxFile(second)))).rejects.toMatchObject({
      code: "TARBALL_ERR_COLLISION",
    });
  });

  it("a file also used as a folder is refused, in either order", async () => {
    for (const tgz of [
      rawTgz(file("package/lib"), file("package/lib/a.js")),
      rawTgz(file("package/lib/a.js"), file("package/lib")),
      rawTgz(file("package/LIB"), file("package/lib/a.js")),
    ]) {
      await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_COLLISION" });
    }
  });

  it("a folder listed after the files inside it is fine", async () => {
    const inspected = await inspectTarball(rawTgz(file("package/lib/a.js"), folder("package/lib/")));
    expect(inspected.files.map((entry) => entry.path)).toEqual(["lib/a.js"]);
    expect(inspected.directories).toEqual(["lib"]);
  });
});
