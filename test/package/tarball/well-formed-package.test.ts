import { chmod, readFile } from "node:fs/promises";
import { join } from "node:path";
import { create } from "tar";
import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { paxHeader, rawEntry, rawTgz } from "../../helpers/raw-tar.js";
import { workspace } from "../../helpers/temp.js";

const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe("a well-formed package", () => {
  it("written by node-tar as npm pack does is accepted with its exact bytes, modes and folders", async () => {
    const root = await workspace({
      "package/package.json": '{"name":"demo","version":"1.0.0"}\n',
      "package/dist/hook.js": "export default {};\n",
      "package/dist/deep/er/still.js": "",
      "package/bin/run.js": "#!/usr/bin/env node\n",
      "package/docs/naïve-ü.md": "# ünïcödé\n",
    });
    await chmod(join(root, "package/bin/run.js"), 0o755);
    const tgz = await readAll(create({ cwd: root, gzip: true, portable: true }, ["package"]));

    const inspected = await inspectTarball(tgz);

    expect(inspected.files.map(({ path, mode }) => [path, mode])).toEqual([
      ["bin/run.js", 0o755],
      ["dist/deep/er/still.js", 0o644],
      ["dist/hook.js", 0o644],
      ["docs/naïve-ü.md", 0o644],
      ["package.json", 0o644],
    ]);
    for (const file of inspected.files) {
      expect(file.data.equals(await readFile(join(root, "package", file.path)))).toBe(true);
    }
    expect(inspected.directories).toEqual(["bin", "dist", "dist/deep", "dist/deep/er", "docs"]);
    expect(inspected.unpackedBytes).toBe(inspected.files.reduce((sum, file) => sum + file.data.length, 0));
  });

  it("keeps binary data byte for byte, across block boundaries", async () => {
    const big = Buffer.concat(Array.from({ length: 300 }, () => everyByte));
    const inspected = await inspectTarball(
      rawTgz(
        rawEntry({ name: "package/a.bin", data: everyByte }),
        rawEntry({ name: "package/empty" }),
        rawEntry({ name: "package/big.bin", data: big }),
      ),
    );
    expect(inspected.files.map((file) => [file.path, file.data.toString("hex")])).toEqual([
      ["a.bin", everyByte.toString("hex")],
      ["big.bin", big.toString("hex")],
      ["empty", ""],
    ]);
  });

  it("returns an NFD name NFC-normalised, and folders only implied by deeper files", async () => {
    const inspected = await inspectTarball(
      rawTgz(
        paxHeader({ path: "package/lib/cafe\u0301.js" }),
        rawEntry({ name: "package/ignored", data: "x" }),
      ),
    );
    expect(inspected.files.map((file) => file.path)).toEqual(["lib/café.js"]);
    expect(inspected.directories).toEqual(["lib"]);
  });

  it("reads a long path split into the ustar prefix and name fields", async () => {
    const folder = "abcdefghij/".repeat(12);
    const inspected = await inspectTarball(
      rawTgz(rawEntry({ prefix: `package/${folder.slice(0, -1)}`, name: "long.js", data: "x" })),
    );
    expect(inspected.files.map((file) => file.path)).toEqual([`${folder}long.js`]);
  });

  it("normalises modes: any execute bit gives 755, none gives 644", async () => {
    const inspected = await inspectTarball(
      rawTgz(
        rawEntry({ name: "package/a", mode: 0o700 }),
        rawEntry({ name: "package/b", mode: 0o600 }),
        rawEntry({ name: "package/c", mode: 0o775 }),
        rawEntry({ name: "package/d", mode: 0o010 }),
      ),
    );
    expect(inspected.files.map((file) => file.mode)).toEqual([0o755, 0o644, 0o755, 0o755]);
  });

  it("accepts GNU-format headers and a git-archive style global pax comment", async () => {
    const inspected = await inspectTarball(
      rawTgz(
        paxHeader({ comment: "0123456789abcdef0123456789abcdef01234567" }, "g"),
        rawEntry({ name: "package/", type: "5", mode: 0o755, magic: "gnu" }),
        rawEntry({ name: "package/index.js", data: "ok", magic: "gnu" }),
      ),
    );
    expect(inspected.files.map((file) => [file.path, file.data.toString()])).toEqual([["index.js", "ok"]]);
    expect(inspected.directories).toEqual([]);
  });

  it("accepts pax metadata it does not use (times, owners)", async () => {
    const inspected = await inspectTarball(
      rawTgz(
        paxHeader({ mtime: "1700000000.5", uid: "1000", uname: "me", "SCHILY.xattr.user.x": "y" }),
        rawEntry({ name: "package/a.js", data: "a" }),
      ),
    );
    expect(inspected.files.map((file) => file.path)).toEqual(["a.js"]);
  });
});

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}
