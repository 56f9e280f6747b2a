import { expect, it } from "vitest";
import { computeIntegrity } from "../../../package/integrity.js";
import { signedMessage, verifySignature } from "../../../package/signature.js";
import { countRows, describeEachBackend, hookPackage, publish, startRegistry, tokenFor } from "../helpers.js";

describeEachBackend("publishing and reading a package", () => {
  it("a publish is answered 201 with the server's integrity and a signature that verifies against /v1/keys", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const tarball = await hookPackage({ name: "redact-secrets" });
    const answer = await publish(reg, alice, tarball, "redact-secrets");
    expect(answer.status).toBe(201);
    expect(answer.json.integrity).toBe(computeIntegrity(tarball));
    expect(answer.json.size).toBe(tarball.length);

    const keys = await reg.call("/v1/keys");
    const key = keys.json.keys[0];
    expect(key.keyId).toBe(answer.json.keyId);
    const message = signedMessage("redact-secrets", "1.0.0", answer.json.integrity);
    expect(verifySignature(key.publicKey, message, answer.json.signature)).toBe(true);
    expect(verifySignature(key.publicKey, `${message}x`, answer.json.signature)).toBe(false);
    expect(await countRows(reg, "versions")).toBe(1);
  });

  it("metadata lists versions with capabilities, effects and signature, and latest skips prereleases", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    for (const version of ["1.0.0", "1.1.0", "2.0.0-beta.1"]) {
      const answer = await publish(
        reg,
        alice,
        await hookPackage({ name: "guard", version }),
        "guard",
        version,
      );
      expect(answer.status).toBe(201);
    }
    const doc = (await reg.call("/v1/packages/guard")).json;
    expect(doc["dist-tags"]).toEqual({ latest: "1.1.0" });
    expect(Object.keys(doc.versions)).toEqual(["1.0.0", "1.1.0", "2.0.0-beta.1"]);
    const v = doc.versions["1.1.0"];
    expect(v.capabilities).toEqual(["fs.read:src", "net:api.example.com:443"]);
    expect(v.effects).toEqual(["block"]);
    expect(v).toMatchObject({ yanked: false, yankedReason: null, deprecated: null, publishedBy: "alice" });
    expect(v.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(doc.readme).toContain("# guard");
  });

  it("a tarball is served with immutable caching, ETag = integrity, 304 on If-None-Match, and counted", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const tarball = await hookPackage({ name: "guard" });
    await publish(reg, alice, tarball, "guard");
    const first = await reg.call("/v1/packages/guard/1.0.0/tarball");
    expect(first.status).toBe(200);
    expect(first.bytes.equals(tarball)).toBe(true);
    expect(first.headers.get("etag")).toBe(`"${computeIntegrity(tarball)}"`);
    expect(first.headers.get("cache-control")).toContain("immutable");
    const again = await reg.call("/v1/packages/guard/1.0.0/tarball", {
      headers: { "if-none-match": first.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    await reg.app.registry.downloads.flush();
    expect((await reg.call("/v1/search?q=guard")).json.results[0].downloads).toBe(1);
  });

  it("scoped names travel URL-encoded", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const answer = await publish(reg, alice, await hookPackage({ name: "@acme/guard" }), "@acme/guard");
    expect(answer.status).toBe(201);
    expect(answer.json.tarball).toBe("/v1/packages/%40acme%2Fguard/1.0.0/tarball");
    expect((await reg.call(answer.json.tarball)).status).toBe(200);
    expect((await reg.call("/v1/packages/@acme%2Fguard")).json.name).toBe("@acme/guard");
  });
});
