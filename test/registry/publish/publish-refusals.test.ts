import { expect, it } from "vitest";
import {
  type Answer,
  describeEachBackend,
  hookPackage,
  manifestFor,
  publish,
  publishPath,
  startRegistry,
  storedState,
  type TestRegistry,
  tokenFor,
} from "../helpers.js";

/** Publishes, expects the refusal, and checks that nothing was stored (no row, blob or file). */
async function expectRefused(
  reg: TestRegistry,
  attempt: () => Promise<Answer>,
  status: number,
  code: string,
): Promise<string> {
  const before = await storedState(reg);
  const answer = await attempt();
  expect(answer.json?.error?.code).toBe(code);
  expect(answer.status).toBe(status);
  expect(await storedState(reg)).toEqual(before);
  return answer.json.error.message as string;
}

describeEachBackend("a publish is refused, with nothing stored", () => {
  it("(the check notices what an accepted publish stores: a blob file or object, a row)", async () => {
    const reg = await startRegistry();
    const before = await storedState(reg);
    expect((await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard")).status).toBe(201);
    const after = await storedState(reg);
    expect(after.versions).toBe(before.versions + 1);
    expect(after.blobs).toHaveLength(1);
    if (reg.blobs) expect(after.objects.filter((key) => key.startsWith("sha512/"))).toHaveLength(1);
    else expect(after.files.filter((f) => f.startsWith("data/blobs/"))).toHaveLength(1);
  });

  it("without a package.json", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name: "guard", noManifest: true });
    await expectRefused(
      reg,
      () => publish(reg, reg.admin, tarball, "guard"),
      400,
      "REG_ERR_MANIFEST_MISSING",
    );
  });

  it("when package.json is not JSON", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name: "guard", files: { "package.json": "{ name: guard" } });
    await expectRefused(
      reg,
      () => publish(reg, reg.admin, tarball, "guard"),
      400,
      "REG_ERR_MANIFEST_INVALID",
    );
  });

  it("when the manifest is invalid, naming every bad field by its path", async () => {
    const reg = await startRegistry();
    const manifest = manifestFor({ name: "guard" });
    const tarball = await hookPackage({
      name: "guard",
      manifest: { license: 5, hookyard: { ...(manifest.hookyard as object), events: [], priority: "high" } },
    });
    const message = await expectRefused(
      reg,
      () => publish(reg, reg.admin, tarball, "guard"),
      400,
      "REG_ERR_MANIFEST_INVALID",
    );
    expect(message).toContain("license:");
    expect(message).toContain("hookyard.events:");
    expect(message).toContain("hookyard.priority:");
  });

  it("when a matcher could stall every agent that installs it (ReDoS), naming the field, the pattern and why", async () => {
    const reg = await startRegistry();
    const manifest = manifestFor({ name: "guard" });
    for (const [pattern, why] of [
      ["(a+)+$", /repeats a group that itself repeats/],
      ["^(a|a)*$", /repeats a choice whose branches can start with the same character/],
      ["x".repeat(1_001), /at most 1000 are allowed/],
      ["^(bash", /is not a valid JavaScript regular expression/],
    ] as const) {
      const tarball = await hookPackage({
        name: "guard",
        manifest: {
          hookyard: { ...(manifest.hookyard as object), matcher: { tool: "^bash$", args: pattern } },
        },
      });
      const message = await expectRefused(
        reg,
        () => publish(reg, reg.admin, tarball, "guard"),
        400,
        "REG_ERR_UNSAFE_MATCHER",
      );
      expect(message).toContain("hookyard.matcher.args:");
      expect(message).toContain(JSON.stringify(pattern.slice(0, 80)).slice(0, -1)); // long ones are cut
      expect(message).toMatch(why);
    }
    // The same package with a plain matcher is accepted: the refusal is about the pattern alone.
    const fine = await hookPackage({
      name: "guard",
      manifest: { hookyard: { ...(manifest.hookyard as object), matcher: { args: "rm\\s+-rf" } } },
    });
    expect((await publish(reg, reg.admin, fine, "guard")).status).toBe(201);
  });

  it("when hookyard.main is not in the tarball", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({
      name: "guard",
      manifest: { hookyard: { main: "dist/missing.js", events: ["tool_before"] } },
    });
    await expectRefused(reg, () => publish(reg, reg.admin, tarball, "guard"), 400, "REG_ERR_MAIN_MISSING");
  });

  it("when the URL's name or version differs from the manifest's", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name: "guard", version: "1.0.0" });
    await expectRefused(reg, () => publish(reg, reg.admin, tarball, "other"), 400, "REG_ERR_NAME_MISMATCH");
    await expectRefused(
      reg,
      () => publish(reg, reg.admin, tarball, "guard", "1.0.1"),
      400,
      "REG_ERR_VERSION_MISMATCH",
    );
  });

  it("when the version or name in the URL is not valid", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name: "guard" });
    for (const version of ["1.0", "v1.0.0", "latest", "1.0.0.0"]) {
      await expectRefused(
        reg,
        () => publish(reg, reg.admin, tarball, "guard", version),
        400,
        "REG_ERR_VERSION_INVALID",
      );
    }
    for (const name of ["Guard", "../guard", "@/x", " guard"]) {
      await expectRefused(reg, () => publish(reg, reg.admin, tarball, name), 400, "REG_ERR_NAME_INVALID");
    }
  });

  it("when the version exists, and also when it was yanked: versions are immutable forever", async () => {
    const reg = await startRegistry();
    await publish(reg, reg.admin, await hookPackage({ name: "guard" }), "guard");
    const changed = await hookPackage({ name: "guard", description: "different bytes" });
    await expectRefused(reg, () => publish(reg, reg.admin, changed, "guard"), 409, "REG_ERR_VERSION_EXISTS");
    const yank = await reg.call(`${publishPath("guard", "1.0.0")}/yank`, {
      method: "POST",
      token: reg.admin,
      json: { reason: "broken" },
    });
    expect(yank.status).toBe(200);
    await expectRefused(reg, () => publish(reg, reg.admin, changed, "guard"), 409, "REG_ERR_VERSION_EXISTS");
  });

  it("without a token, with an unknown token, or with a read-only token", async () => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name: "guard" });
    const reader = await tokenFor(reg, "reader", "read");
    await expectRefused(reg, () => publish(reg, "", tarball, "guard"), 401, "REG_ERR_AUTH_REQUIRED");
    await expectRefused(reg, () => publish(reg, "hyk_nope", tarball, "guard"), 401, "REG_ERR_TOKEN_INVALID");
    await expectRefused(reg, () => publish(reg, reader, tarball, "guard"), 403, "REG_ERR_FORBIDDEN");
  });

  it("when the token's owner does not own the package, or its scope", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const mallory = await tokenFor(reg, "mallory");
    expect((await publish(reg, alice, await hookPackage({ name: "guard" }), "guard")).status).toBe(201);
    expect((await publish(reg, alice, await hookPackage({ name: "@acme/one" }), "@acme/one")).status).toBe(
      201,
    );
    const next = await hookPackage({ name: "guard", version: "1.0.1" });
    await expectRefused(reg, () => publish(reg, mallory, next, "guard", "1.0.1"), 403, "REG_ERR_FORBIDDEN");
    const inScope = await hookPackage({ name: "@acme/two" });
    await expectRefused(reg, () => publish(reg, mallory, inScope, "@acme/two"), 403, "REG_ERR_FORBIDDEN");
  });

  it("when a new name differs from another owner's package only by case, '.', '-' or '_'", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const mallory = await tokenFor(reg, "mallory");
    expect((await publish(reg, alice, await hookPackage({ name: "left-pad" }), "left-pad")).status).toBe(201);
    for (const name of ["left_pad", "leftpad", "left.pad", "l-e-f-t-p-a-d", "left--pad"]) {
      const message = await expectRefused(
        reg,
        async () => publish(reg, mallory, await hookPackage({ name }), name),
        403,
        "REG_ERR_NAME_CONFUSABLE",
      );
      expect(message).toContain("left-pad");
    }
    // The owner of left-pad may hold its look-alikes.
    expect((await publish(reg, alice, await hookPackage({ name: "left_pad" }), "left_pad")).status).toBe(201);
  });

  it("when the body is not sent as a tarball", async () => {
    const reg = await startRegistry();
    const before = await storedState(reg);
    const answer = await reg.call(publishPath("guard", "1.0.0"), {
      method: "PUT",
      token: reg.admin,
      json: {},
    });
    expect(answer.json.error.code).toBe("REG_ERR_UNSUPPORTED_MEDIA_TYPE");
    const text = await reg.call(publishPath("guard", "1.0.0"), {
      method: "PUT",
      token: reg.admin,
      body: "hello",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect(text.json.error.code).toBe("REG_ERR_UNSUPPORTED_MEDIA_TYPE");
    expect(await storedState(reg)).toEqual(before);
  });

  it("when the tarball is over the gzip cap (413), before it is read", async () => {
    const reg = await startRegistry({ limits: { maxGzipBytes: 64 * 1024 } });
    const tarball = await hookPackage({ name: "guard", files: { "blob.bin": randomText(256 * 1024) } });
    expect(tarball.length).toBeGreaterThan(64 * 1024);
    await expectRefused(
      reg,
      () => publish(reg, reg.admin, tarball, "guard"),
      413,
      "REG_ERR_TARBALL_GZIP_TOO_LARGE",
    );
  });
});

describeEachBackend("a publish that fails after its blob was stored", (backend) => {
  it("commits nothing, and removes the blob again where no other process could be committing it", async () => {
    let fail = true;
    const reg = await startRegistry({
      hooks: {
        beforeCommit: () => {
          if (fail) throw new Error("disk on fire");
        },
      },
    });
    const tarball = await hookPackage({ name: "guard" });
    const before = await storedState(reg);
    const answer = await publish(reg, reg.admin, tarball, "guard");
    expect(answer.status).toBe(500);
    expect(answer.json.error.code).toBe("REG_ERR_INTERNAL");
    expect(answer.json.error.message).not.toContain("disk on fire");
    const after = await storedState(reg);
    if (backend === "sqlite") expect(after).toEqual(before);
    else {
      // Another process on the database may be publishing these very bytes: the blob stays, unserved,
      // for the sweep of a start that runs alone.
      expect({ ...after, blobs: before.blobs, objects: before.objects }).toEqual(before);
      expect(after.blobs).toHaveLength(before.blobs.length + 1);
    }
    expect((await reg.call("/v1/packages/guard/1.0.0/tarball")).status).toBe(404);
    fail = false;
    expect((await publish(reg, reg.admin, tarball, "guard")).status).toBe(201);
  });
});

function randomText(length: number): string {
  let text = "";
  while (text.length < length) text += Math.random().toString(36).slice(2);
  return text.slice(0, length);
}
