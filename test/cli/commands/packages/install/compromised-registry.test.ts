import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../../../package/integrity.js";
import { signedMessage } from "../../../../../package/signature.js";
import { prepareVersion } from "../../../../../registry/publish/publish.js";
import { rawEntry, rawTgz } from "../../../../helpers/raw-tar.js";
import { hookPackage, manifestFor, startRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace } from "./fixtures.js";

/**
 * A registry that serves, signed, a tarball its own publish checks would refuse (it was broken
 * into, or runs other code): install refuses it on its own checks and tells the person installing
 * what happened and whom to tell, not the publisher's chmod advice.
 */
describe("install from a registry that signed an unsafe tarball", () => {
  it("refuses a setuid entry with nothing written, and says to tell the registry", async () => {
    const registry = await startRegistry();
    const ctx = registry.app.registry;
    const clean = await prepareVersion(ctx, {
      name: "evil",
      version: "1.0.0",
      tarball: await hookPackage({ name: "evil", version: "1.0.0" }),
      publisher: { owner: "admin" },
    });
    const unsafe = rawTgz(
      rawEntry({ name: "package/", type: "5", mode: 0o755 }),
      rawEntry({ name: "package/package.json", data: JSON.stringify(manifestFor({ name: "evil" })) }),
      rawEntry({ name: "package/dist/", type: "5", mode: 0o755 }),
      rawEntry({ name: "package/dist/hook.js", data: "export default {};\n" }),
      rawEntry({ name: "package/run.sh", mode: 0o4755, data: "#!/bin/sh\n" }),
    );
    const integrity = computeIntegrity(unsafe);
    await ctx.blobs.put(integrity, unsafe);
    await ctx.store.publishVersions(
      [
        {
          ...clean,
          integrity,
          size: unsafe.length,
          signature: ctx.signer.sign(signedMessage("evil", "1.0.0", integrity)),
        },
      ],
      () => undefined,
    );

    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "evil", "--registry", registry.url, "--yes");
    expect(result.code).toBe(3);
    const line = result.stderr.trim().split("\n").at(-1);
    expect(line).toBe(
      `hookyard: CLI_ERR_INTEGRITY: evil@1.0.0 from ${registry.url} was refused: the tarball holds an entry with a setuid, setgid or sticky bit, or writable by every user: entry "package/run.sh" (TARBALL_ERR_MODE). Nothing was written. The registry should have refused it at publish: tell its operator, and do not install this version`,
    );
    expect(result.stderr).not.toContain("chmod");
    expect(result.stderr).not.toContain("pack again");
    expect(await readdir(ws)).toEqual([]);
  });
});
