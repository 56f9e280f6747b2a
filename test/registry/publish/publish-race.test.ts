import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../helpers/temp.js";
import {
  backends,
  cluster,
  countRows,
  describeEachBackend,
  hookPackage,
  publish,
  startRegistry,
  tokenFor,
} from "../helpers.js";

describeEachBackend("concurrent publishes", () => {
  it("of one version: exactly one 201 and one 409, twenty times over; the loser's blob is not served", async () => {
    const reg = await startRegistry({ rateLimit: { publish: { max: 1000 } } });
    for (let round = 0; round < 20; round++) {
      const version = `1.0.${round}`;
      // Even rounds race identical bytes, odd rounds two different tarballs for the same version.
      const first = await hookPackage({ name: "contested", version });
      const second =
        round % 2 === 0
          ? first
          : await hookPackage({ name: "contested", version, description: "the other one" });
      const answers = await Promise.all([
        publish(reg, reg.admin, first, "contested", version),
        publish(reg, reg.admin, second, "contested", version),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)?.json.error.code).toBe("REG_ERR_VERSION_EXISTS");
      const winner = answers.find((a) => a.status === 201)?.json;
      const served = await reg.call(`/v1/packages/contested/${version}/tarball`);
      expect(served.status).toBe(200);
      expect(served.headers.get("etag")).toBe(`"${winner.integrity}"`);
    }
    expect(await countRows(reg, "versions")).toBe(20);
    // The loser's own bytes (odd rounds) can never be committed, so it removes them.
    expect(await reg.app.registry.blobs.list()).toHaveLength(20);
  });

  it("of one new name by two owners: one owns it, the other is refused", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const bob = await tokenFor(reg, "bob");
    const tarball = await hookPackage({ name: "fresh" });
    const bobs = await hookPackage({ name: "fresh", description: "bob's" });
    const answers = await Promise.all([
      publish(reg, alice, tarball, "fresh"),
      publish(reg, bob, bobs, "fresh"),
    ]);
    // The loser is told the name is another's (403), or, when the winner's version was already
    // committed by the time it looked, that the version exists (409): refused either way.
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(201);
    expect([403, 409]).toContain(statuses[1]);
    const owners = (await reg.call("/v1/packages/fresh/owners")).json.owners;
    expect(owners).toEqual([answers[0]?.status === 201 ? "alice" : "bob"]);
    expect(await reg.app.registry.blobs.list()).toHaveLength(1);
  });
});

describe.skipIf(!backends.includes("postgres+s3"))("two registries on one PostgreSQL database", () => {
  it("a publish that fails in one keeps the tarball the other is committing (the same bytes)", async () => {
    const database = await (await cluster()).createDatabase();
    const root = await tempDir();
    const dataDir = join(root, "data");
    let atCommit!: () => void;
    const committing = new Promise<void>((done) => (atCommit = done));
    let failed!: () => void;
    const otherFailed = new Promise<void>((done) => (failed = done));
    const first = await startRegistry({
      root,
      dataDir,
      database,
      hooks: {
        beforeCommit: async () => {
          atCommit();
          await otherFailed;
        },
      },
    });
    const second = await startRegistry({
      root,
      dataDir,
      database,
      hooks: {
        beforeCommit: () => {
          throw new Error("the connection to the database was lost");
        },
      },
    });
    const tarball = await hookPackage({ name: "same-bytes" });
    const winning = publish(first, first.admin, tarball, "same-bytes");
    await committing;
    const losing = await publish(second, first.admin, tarball, "same-bytes");
    expect(losing.status).toBe(500);
    failed();
    expect((await winning).status).toBe(201);
    for (const registry of [first, second]) {
      const served = await registry.call("/v1/packages/same-bytes/1.0.0/tarball");
      expect(served.status).toBe(200);
      expect(served.bytes.equals(tarball)).toBe(true);
    }
  });

  it("a tarball swept as an orphan before its row was committed is stored again before the 201", async () => {
    const database = await (await cluster()).createDatabase();
    let registry: Awaited<ReturnType<typeof startRegistry>> | undefined;
    registry = await startRegistry({
      database,
      hooks: {
        // What a start that wrongly found itself alone would do between the put and the commit.
        beforeCommit: async ({ integrity }) => registry?.app.registry.blobs.delete(integrity),
      },
    });
    const tarball = await hookPackage({ name: "swept-early" });
    expect((await publish(registry, registry.admin, tarball, "swept-early")).status).toBe(201);
    const served = await registry.call("/v1/packages/swept-early/1.0.0/tarball");
    expect(served.status).toBe(200);
    expect(served.bytes.equals(tarball)).toBe(true);
  });
});
