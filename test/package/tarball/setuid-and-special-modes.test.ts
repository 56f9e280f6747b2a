import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { rawEntry, rawTgz } from "../../helpers/raw-tar.js";

describe("setuid, setgid and sticky bits, and world-writable entries", () => {
  it.each([
    ["a setuid file", "package/bin/run", "0", 0o4755, "setuid bit (mode 4755): clear it (chmod u-s)"],
    ["a setgid file", "package/bin/run", "0", 0o2755, "setgid bit"],
    ["a sticky folder", "package/tmp/", "5", 0o1777, "sticky bit"],
    ["a setgid folder", "package/lib/", "5", 0o2755, "setgid bit"],
    [
      "a world-writable file",
      "package/dist/hook.js",
      "0",
      0o777,
      "writable by every user (mode 777): clear it (chmod o-w)",
    ],
    ["a world-writable folder", "package/dist/", "5", 0o757, "writable by every user"],
  ])("%s is refused", async (_, name, type, mode, says) => {
    await expect(inspectTarball(rawTgz(rawEntry({ name, type, mode })))).rejects.toMatchObject({
      code: "TARBALL_ERR_MODE",
      path: name,
      message: expect.stringContaining(says),
    });
  });
});

describe("ordinary modes", () => {
  it.each([0o644, 0o755, 0o664, 0o775, 0o600])("%o is accepted", async (mode) => {
    const inspected = await inspectTarball(
      rawTgz(rawEntry({ name: "package/package.json", mode, data: "{}" })),
    );
    expect(inspected.files.map((f) => f.path)).toEqual(["package.json"]);
  });
});
