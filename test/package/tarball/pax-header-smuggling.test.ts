import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { gnuLongName, paxHeader, paxRecord, rawEntry, rawTgz } from "../../helpers/raw-tar.js";

const entry = rawEntry({ name: "package/a.js", data: "x" });
const refusedAs = (code: string, tgz: Buffer) => expect(inspectTarball(tgz)).rejects.toMatchObject({ code });

describe("pax and GNU headers that try to make readers disagree", () => {
  it("a pax size wins over the ustar size, and what it frames is data, not another entry", async () => {
    const smuggled = rawEntry({ name: "package/../../evil", data: "owned" });
    const tgz = rawTgz(
      paxHeader({ size: String(smuggled.length) }),
      rawEntry({ name: "package/blob.bin", size: 0 }),
      smuggled,
    );
    const inspected = await inspectTarball(tgz);
    expect(inspected.files.map((file) => [file.path, file.data.equals(smuggled)])).toEqual([
      ["blob.bin", true],
    ]);
  });

  it("the control: without the pax size the smuggled header is read as an entry and refused", async () => {
    const smuggled = rawEntry({ name: "package/../../evil", data: "owned" });
    await refusedAs("TARBALL_ERR_PATH", rawTgz(rawEntry({ name: "package/blob.bin", size: 0 }), smuggled));
  });

  it("a pax size larger than what follows is refused as cut short", async () => {
    await refusedAs("TARBALL_ERR_CORRUPT", rawTgz(paxHeader({ size: "1000000" }), entry));
  });

  it.each<[string, Record<string, string>, "x" | "g"]>([
    ["a size that is not a number", { size: "12abc" }, "x"],
    ["an empty size (which would mean: use the ustar size)", { size: "" }, "x"],
    ["a global header setting the path of every entry", { path: "package/../x" }, "g"],
    ["a global header setting every size", { size: "0" }, "g"],
    ["a pax mode (node-tar applies it, GNU tar ignores it)", { mode: "2541" }, "x"],
    ["a global pax mode", { mode: "2541" }, "g"],
  ])("%s is refused", async (_, records, type) => {
    await refusedAs("TARBALL_ERR_CORRUPT", rawTgz(paxHeader(records, type), entry));
  });

  it("a key given twice in one pax header is refused, whichever value a reader would keep", async () => {
    const body = Buffer.concat([paxRecord("path", "package/a.js"), paxRecord("path", "package/../x")]);
    await refusedAs(
      "TARBALL_ERR_CORRUPT",
      rawTgz(rawEntry({ name: "PaxHeader", type: "x", data: body }), entry),
    );
  });

  it("a record whose length does not land on its newline is refused", async () => {
    const body = Buffer.from("30 path=package/../../x\n");
    await refusedAs(
      "TARBALL_ERR_CORRUPT",
      rawTgz(rawEntry({ name: "PaxHeader", type: "x", data: body }), entry),
    );
  });

  it("two pax headers for one entry are refused", async () => {
    await refusedAs(
      "TARBALL_ERR_CORRUPT",
      rawTgz(paxHeader({ path: "package/a.js" }), paxHeader({ path: "package/../x" }), entry),
    );
  });

  it("a pax path and a GNU long name for one entry are refused", async () => {
    await refusedAs(
      "TARBALL_ERR_CORRUPT",
      rawTgz(paxHeader({ path: "package/a.js" }), gnuLongName("package/b.js"), entry),
    );
  });

  it("a pax header with no entry after it is refused", async () => {
    await refusedAs("TARBALL_ERR_CORRUPT", rawTgz(entry, paxHeader({ path: "package/../x" })));
  });

  it("a pax header over 64 KiB is refused before it is read", async () => {
    await refusedAs("TARBALL_ERR_CORRUPT", rawTgz(paxHeader({ comment: "x".repeat(70 * 1024) }), entry));
  });

  it("an empty pax path is refused", async () => {
    await refusedAs("TARBALL_ERR_PATH", rawTgz(paxHeader({ path: "" }), entry));
  });
});
