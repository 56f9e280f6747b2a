import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { rawEntry, rawTgz } from "../../helpers/raw-tar.js";

describe("setuid, setgid and sticky bits", () => {
  it.each([
    ["a setuid file", "package/bin/run", "0", 0o4755, "setuid bit (mode 4755): clear it (chmod u-s)"],
    ["a setgid file", "package/bin/run", "0", 0o2755, "setgid bit"],
    ["a sticky folder", "package/tmp/", "5", 0o1777, "sticky bit"],
    ["a setgid folder", "package/lib/", "5", 0o2755, "setgid bit"],
  ])("%s is refused", async (_, name, type, mode, says) => {
    await expect(inspectTarball(rawTgz(rawEntry({ name, type, mode })))).rejects.toMatchObject({
      code: "TARBALL_ERR_MODE",
      path: name,
      message: expect.stringContaining(says),
    });
  });
});
