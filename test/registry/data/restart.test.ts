import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../../package/integrity.js";
import { signedMessage, verifySignature } from "../../../package/signature.js";
import { buildRegistry } from "../../../registry/app.js";
import type { FsBlobStore } from "../../../registry/blobs/fs-blob-store.js";
import { tempDir } from "../../helpers/temp.js";
import {
  describeEachBackend,
  filesUnder,
  hookPackage,
  publish,
  startRegistry,
  tokenFor,
} from "../helpers.js";

describeEachBackend("a registry survives a restart", () => {
  it("with packages, yanks, deprecations, owners, tokens, downloads, advisories and the key", async () => {
    const first = await startRegistry();
    const alice = await tokenFor(first, "alice");
    const bob = await tokenFor(first, "bob");
    for (const version of ["1.0.0", "1.1.0"]) {
      await publish(first, alice, await hookPackage({ name: "guard", version }), "guard", version);
    }
    await first.call("/v1/packages/guard/1.1.0/yank", {
      method: "POST",
      token: alice,
      json: { reason: "r" },
    });
    await first.call("/v1/packages/guard/1.0.0/deprecate", {
      method: "POST",
      token: alice,
      json: { message: "m" },
    });
    await first.call("/v1/packages/guard/owners", { method: "PUT", token: alice, json: { add: ["bob"] } });
    const [bobs] = (await first.call("/v1/tokens", { token: bob })).json.tokens;
    await first.call(`/v1/tokens/${bobs.id}`, { method: "DELETE", token: bob });
    await first.call("/v1/advisories", {
      method: "POST",
      token: first.admin,
      json: { package: "guard", range: "<1.1.0", severity: "moderate", text: "t" },
    });
    await first.call("/v1/packages/guard/1.0.0/tarball");
    await first.call("/v1/packages/guard/1.0.0/tarball");
    const before = {
      doc: (await first.call("/v1/packages/guard")).json,
      keys: (await first.call("/v1/keys")).json,
      audit: (await first.call("/v1/audit", { token: first.admin })).json,
    };
    await first.close();

    const second = await startRegistry({ root: first.root, dataDir: first.dataDir });
    expect(second.app.registry.initialAdminToken).toBeUndefined();
    expect(second.app.registry.sweptBlobs).toEqual([]);
    const doc = (await second.call("/v1/packages/guard")).json;
    expect(doc).toEqual(before.doc);
    expect(doc.versions["1.1.0"].yankedReason).toBe("r");
    expect(doc.versions["1.0.0"].deprecated).toBe("m");
    expect((await second.call("/v1/keys")).json).toEqual(before.keys);
    expect(
      verifySignature(
        before.keys.keys[0].publicKey,
        signedMessage("guard", "1.0.0", doc.versions["1.0.0"].integrity),
        doc.versions["1.0.0"].signature,
      ),
    ).toBe(true);
    expect((await second.call("/v1/audit", { token: first.admin })).json).toEqual(before.audit);
    expect((await second.call("/v1/packages/guard/owners")).json.owners).toEqual(["alice", "bob"]);
    expect((await second.call("/v1/search?q=guard")).json.results[0].downloads).toBe(2);
    expect((await second.call("/v1/advisories?names=guard")).json.advisories.guard).toHaveLength(1);
    const tarball = await second.call("/v1/packages/guard/1.0.0/tarball");
    expect(computeIntegrity(tarball.bytes)).toBe(doc.versions["1.0.0"].integrity);
    // Tokens: alice's still works, bob's is still revoked.
    const next = await publish(
      second,
      alice,
      await hookPackage({ name: "guard", version: "1.2.0" }),
      "guard",
      "1.2.0",
    );
    expect(next.status).toBe(201);
    expect((await second.call("/v1/tokens", { token: bob })).json.error.code).toBe("REG_ERR_TOKEN_REVOKED");
  });
});

describeEachBackend("start-up", (backend) => {
  it("sweeps orphan blobs (and, in a data dir, leftovers in tmp/), keeping the blobs that rows name", async () => {
    const reg = await startRegistry();
    const kept = (await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard")).json
      .integrity;
    const orphanBytes = await hookPackage({ name: "orphan" });
    const orphan = computeIntegrity(orphanBytes);
    await reg.app.registry.blobs.put(orphan, orphanBytes);
    if (backend === "sqlite") await writeFile(join(reg.dataDir, "tmp", "half-written.blob"), "partial");
    await reg.close();

    const again = await startRegistry({ root: reg.root, dataDir: reg.dataDir });
    expect(again.blobs).toBe(reg.blobs);
    expect(again.app.registry.sweptBlobs).toEqual([orphan]);
    expect(await again.app.registry.blobs.list()).toEqual([kept]);
    if (backend === "sqlite") expect(await filesUnder(join(reg.dataDir, "tmp"))).toEqual([]);
    expect((await again.call("/v1/packages/guard/1.0.0/tarball")).status).toBe(200);
  });
});

describe("an embedded data dir", () => {
  it("the signing key is private to its owner (mode 0600) and kept across starts", async () => {
    const reg = await startRegistry();
    const keyFile = join(reg.dataDir, "keys", "ed25519.pem");
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const pem = await readFile(keyFile, "utf8");
    expect(pem).toContain("PRIVATE KEY");
    await reg.close();
    await startRegistry({ root: reg.root, dataDir: reg.dataDir });
    expect(await readFile(keyFile, "utf8")).toBe(pem);
  });
});

describe("start-up of an embedded registry", () => {
  it("refuses a database written by a newer hookyard (a migration it does not know)", async () => {
    const reg = await startRegistry();
    await reg.close();
    const db = new Database(join(reg.dataDir, "registry.sqlite"));
    db.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)").run(
      "future",
      4102444800000,
    );
    db.close();
    const failure = await buildRegistry({ dataDir: reg.dataDir }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "REG_ERR_DATABASE_TOO_NEW" });
    expect((failure as Error).message).toContain("newer version");
  });

  it("refuses a data dir that is a file, below a file, or where no directory can be made, with REG_ERR_DATA_DIR", async () => {
    const root = await tempDir();
    const file = join(root, "file");
    await writeFile(file, "not a dir");
    // Below /proc, mkdir answers ENOENT under a parent that exists: Node's recursive mkdir loops forever there.
    for (const dataDir of [file, join(file, "below"), "/proc/hookyard-nope/data"]) {
      const failure = await buildRegistry({ dataDir }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "REG_ERR_DATA_DIR" });
      expect((failure as Error).message).toContain(dataDir);
    }
  });

  it("refuses a signing key file it cannot read as a key", async () => {
    const root = await tempDir();
    await mkdir(join(root, "data", "keys"), { recursive: true });
    await writeFile(join(root, "data", "keys", "ed25519.pem"), "-----BEGIN PRIVATE KEY-----\ngarbage\n");
    const failure = await buildRegistry({ dataDir: join(root, "data") }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "REG_ERR_SIGNING_KEY" });
  });

  it("a blob path names its integrity (content-addressed)", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name: "guard" });
    const { integrity } = (await publish(reg, reg.admin, tarball, "guard")).json;
    const file = (reg.app.registry.blobs as FsBlobStore).fileOf(integrity);
    const hex = Buffer.from(integrity.slice("sha512-".length), "base64").toString("hex");
    expect(file).toBe(join(reg.dataDir, "blobs", "sha512", hex.slice(0, 2), hex));
    expect((await readFile(file)).equals(tarball)).toBe(true);
  });
});
