import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { gnuLongName, paxHeader, rawEntry, rawTgz } from "../../helpers/raw-tar.js";

const refusedAs = (code: string, tgz: Buffer) => expect(inspectTarball(tgz)).rejects.toMatchObject({ code });

describe("entry names that escape the package folder or mean different things on different systems", () => {
  it.each([
    ["////abs", "////abs"],
    ["an absolute path", "/etc/passwd"],
    ["a drive prefix with ..", "C:../x"],
    ["a drive-relative path", "c:package/x"],
    ["package/../x", "package/../x"],
    ["a climb at the end", "package/a/.."],
    ["a dot segment", "package/./x"],
    ["a leading ./", "./package/x"],
    ["backslashes", "package\\..\\..\\x"],
    ["an empty segment", "package//x"],
    ["a newline", "package/a\nb"],
    ["an NTFS data stream", "package/a.js:$DATA"],
    ["a trailing dot Windows drops", "package/a.js."],
    ["a trailing space Windows drops", "package/a.js "],
  ])("%s (%j) is refused", async (_, name) => {
    await refusedAs("TARBALL_ERR_PATH", rawTgz(rawEntry({ name, data: "x" })));
  });

  it("a pax header path ../x is refused even though the ustar name is harmless", async () => {
    const tgz = rawTgz(
      paxHeader({ path: "package/../x" }),
      rawEntry({ name: "package/harmless.js", data: "x" }),
    );
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_PATH",
      path: "package/../x",
    });
  });

  it("a GNU long name ../x is refused", async () => {
    await refusedAs(
      "TARBALL_ERR_PATH",
      rawTgz(gnuLongName("package/../../x"), rawEntry({ name: "package/a" })),
    );
  });

  it("a NUL byte in a name is refused, in the ustar field, a pax path and a GNU long name", async () => {
    const name = Buffer.from("package/evil.js\0.txt");
    await refusedAs("TARBALL_ERR_PATH", rawTgz(rawEntry({ name, data: "x" })));
    await refusedAs("TARBALL_ERR_PATH", rawTgz(paxHeader({ path: name }), rawEntry({ name: "package/a" })));
    await refusedAs("TARBALL_ERR_PATH", rawTgz(gnuLongName(name), rawEntry({ name: "package/a" })));
  });

  it("a name that is not UTF-8 is refused", async () => {
    await refusedAs(
      "TARBALL_ERR_PATH",
      rawTgz(rawEntry({ name: Buffer.from("package/caf\xe9.js", "latin1") })),
    );
  });

  it("a pax header declaring binary (non-UTF-8) names is refused", async () => {
    await refusedAs(
      "TARBALL_ERR_PATH",
      rawTgz(paxHeader({ hdrcharset: "BINARY", path: "package/a.js" }), rawEntry({ name: "package/a.js" })),
    );
  });

  it("a file whose name ends in a slash is refused (old tars meant a folder, new ones a file)", async () => {
    await refusedAs("TARBALL_ERR_PATH", rawTgz(rawEntry({ name: "package/lib/", data: "x" })));
  });

  it.each([
    ["a top-level file", "index.js"],
    ["another top folder", "other/index.js"],
    ["a capitalised package folder", "Package/index.js"],
    ["a file named package", "package"],
  ])("an entry outside package/ (%s) is refused", async (_, name) => {
    const tgz = rawTgz(rawEntry({ name: "package/ok.js", data: "x" }), rawEntry({ name, data: "x" }));
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_LAYOUT", path: name });
  });
});
