import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { paxHeader, rawEntry, rawTgz } from "../../helpers/raw-tar.js";

/** A file (or folder) at `path`, named through a pax header since ustar fields hold at most 255 bytes. */
const fileAt = (path: string, type = "0") => [
  paxHeader({ path }),
  rawEntry({ name: "package/placeholder", type, data: type === "5" ? "" : "x" }),
];

describe("names too long and folders too deep", () => {
  it("a 256-byte name is refused and a 255-byte one accepted", async () => {
    await expect(inspectTarball(rawTgz(...fileAt(`package/${"a".repeat(256)}`)))).rejects.toMatchObject({
      code: "TARBALL_ERR_NAME_TOO_LONG",
      message: expect.stringContaining("256-byte name"),
    });
    const accepted = await inspectTarball(rawTgz(...fileAt(`package/${"a".repeat(255)}`)));
    expect(accepted.files.map((file) => file.path)).toEqual(["a".repeat(255)]);
  });

  it("counts a name's UTF-8 bytes, not its characters", async () => {
    await expect(inspectTarball(rawTgz(...fileAt(`package/${"é".repeat(128)}`)))).rejects.toMatchObject({
      code: "TARBALL_ERR_NAME_TOO_LONG",
    });
  });

  it("2,000 nested folders are refused at the 33rd", async () => {
    const folders = Array.from({ length: 2000 }, (_, i) => {
      const path = `package/${"d/".repeat(i + 1)}`;
      return path.length <= 100 ? rawEntry({ name: path, type: "5" }) : Buffer.concat(fileAt(path, "5"));
    });
    await expect(inspectTarball(rawTgz(...folders))).rejects.toMatchObject({
      code: "TARBALL_ERR_TOO_DEEP",
      path: `package/${"d/".repeat(33)}`,
    });
  });

  it("one file 2,000 folders deep is refused", async () => {
    await expect(inspectTarball(rawTgz(...fileAt(`package/${"d/".repeat(2000)}f.js`)))).rejects.toMatchObject(
      {
        code: "TARBALL_ERR_TOO_DEEP",
      },
    );
  });

  it("32 levels below package/ are accepted, 33 refused, and maxDepth moves the line", async () => {
    const deep = (levels: number) => rawTgz(...fileAt(`package/${"d/".repeat(levels - 1)}f.js`));
    expect((await inspectTarball(deep(32))).files).toHaveLength(1);
    await expect(inspectTarball(deep(33))).rejects.toMatchObject({ code: "TARBALL_ERR_TOO_DEEP" });
    await expect(inspectTarball(deep(5), { maxDepth: 4 })).rejects.toMatchObject({
      code: "TARBALL_ERR_TOO_DEEP",
    });
  });

  it("a whole path over 1,024 bytes is refused even when each name is short enough", async () => {
    const path = `package/${`${"n".repeat(200)}/`.repeat(6)}f.js`;
    await expect(inspectTarball(rawTgz(...fileAt(path)))).rejects.toMatchObject({
      code: "TARBALL_ERR_NAME_TOO_LONG",
      message: expect.stringContaining("1024 bytes below package/"),
    });
  });
});
