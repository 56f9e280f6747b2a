import { describe, expect, it } from "vitest";
import { hookPackage, publish, startRegistry } from "../helpers.js";

/** npm's limit, which the manifest schema enforces too: the API must take every name it allows. */
const longest = (prefix: string) => prefix + "a".repeat(214 - prefix.length);

describe("names of the greatest allowed length", () => {
  it.each([
    ["unscoped", longest("")],
    ["scoped (sent with %40 and %2F)", longest("@acme/")],
  ])("%s: publish, metadata and tarball all work", async (_kind, name) => {
    const reg = await startRegistry();
    const tarball = await hookPackage({ name });
    const published = await publish(reg, reg.admin, tarball, name);
    expect(published.status).toBe(201);
    const encoded = encodeURIComponent(name);
    const document = await reg.call(`/v1/packages/${encoded}`);
    expect(document.status).toBe(200);
    expect(document.json.name).toBe(name);
    const download = await reg.call(`/v1/packages/${encoded}/1.0.0/tarball`);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(tarball)).toBe(true);
  });

  it("one character more is refused by name, not by URL length", async () => {
    const reg = await startRegistry();
    const name = `${longest("")}a`;
    const answer = await publish(reg, reg.admin, await hookPackage({ name }), name);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toMatch(/^REG_ERR_/);
    expect(answer.json.error.message).toContain("214");
  });
});
