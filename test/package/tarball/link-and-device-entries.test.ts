import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { gnuLongName, paxHeader, rawEntry, rawTgz } from "../../helpers/raw-tar.js";

const fileAfter = rawEntry({ name: "package/index.js", data: "ok" });

describe("entries that are not regular files or folders", () => {
  it("a symlink, then a file written through it, is refused at the symlink", async () => {
    const tgz = rawTgz(
      rawEntry({ name: "package/lib", type: "2", linkname: "/etc" }),
      rawEntry({ name: "package/lib/cron.d/evil", data: "* * * * * root sh\n" }),
    );
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_ENTRY_TYPE",
      path: "package/lib",
      message: expect.stringContaining('symbolic link to "/etc"'),
    });
  });

  it("a hard link to ../x is refused", async () => {
    const tgz = rawTgz(rawEntry({ name: "package/x", type: "1", linkname: "../x" }), fileAfter);
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_ENTRY_TYPE",
      message: expect.stringContaining('hard link to "../x"'),
    });
  });

  it.each([
    ["3", "a character device"],
    ["4", "a block device"],
    ["6", "a FIFO"],
    ["7", "a contiguous file"],
    ["S", 'an entry of tar type "S"'],
    ["D", 'an entry of tar type "D"'],
    ["V", 'an entry of tar type "V"'],
    ["X", 'an entry of tar type "X"'],
  ])("type %s (%s) is refused", async (type, what) => {
    const tgz = rawTgz(rawEntry({ name: "package/thing", type }), fileAfter);
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_ENTRY_TYPE",
      message: expect.stringContaining(`is ${what}`),
    });
  });

  it("a regular file that also carries a link target is refused, whichever header names it", async () => {
    const viaUstar = rawTgz(rawEntry({ name: "package/a.js", linkname: "../../etc/passwd", data: "x" }));
    const viaPax = rawTgz(
      paxHeader({ linkpath: "/etc/passwd" }),
      rawEntry({ name: "package/a.js", data: "x" }),
    );
    const viaGnu = rawTgz(gnuLongName("../x", "K"), rawEntry({ name: "package/a.js", data: "x" }));
    for (const tgz of [viaUstar, viaPax, viaGnu]) {
      await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_ENTRY_TYPE" });
    }
  });

  it("a symlink hidden behind a pax header that names an innocent path is still refused", async () => {
    const tgz = rawTgz(
      paxHeader({ path: "package/readme.md", linkpath: "../../../.ssh/id_ed25519" }),
      rawEntry({ name: "package/readme.md", type: "2" }),
    );
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_ENTRY_TYPE" });
  });

  it("a sparse file (GNU pax sparse records) is refused", async () => {
    const tgz = rawTgz(
      paxHeader({ "GNU.sparse.major": "1", "GNU.sparse.minor": "0", "GNU.sparse.name": "package/a" }),
      rawEntry({ name: "package/GNUSparseFile.0/a", data: "x" }),
    );
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_ENTRY_TYPE" });
  });
});
