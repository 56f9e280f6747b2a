import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { rawEntry, rawTgz } from "../../helpers/raw-tar.js";

const emptyFiles = (count: number) =>
  Array.from({ length: count }, (_, i) => rawEntry({ name: `package/f${String(i).padStart(5, "0")}` }));

describe("a flood of entries", () => {
  it("20,000 empty files are refused at the 1,001st entry", async () => {
    const tgz = rawTgz(...emptyFiles(20_000));
    const started = performance.now();
    await expect(inspectTarball(tgz)).rejects.toMatchObject({
      code: "TARBALL_ERR_TOO_MANY_ENTRIES",
      path: "package/f01000",
      message: expect.stringContaining("more than 1000 files and folders"),
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("1,000 entries, folders included, are accepted", async () => {
    const inspected = await inspectTarball(
      rawTgz(rawEntry({ name: "package/", type: "5" }), ...emptyFiles(999)),
    );
    expect(inspected.files).toHaveLength(999);
  });

  it("maxEntries moves the line", async () => {
    await expect(inspectTarball(rawTgz(...emptyFiles(3)), { maxEntries: 2 })).rejects.toMatchObject({
      code: "TARBALL_ERR_TOO_MANY_ENTRIES",
    });
  });
});
