import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Json, startRegistry, type TestRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace, publishGuard } from "./fixtures.js";

async function rangeOf(ws: string, name: string): Promise<string> {
  return JSON.parse(await readFile(join(ws, "hookyard.json"), "utf8")).community[name];
}

async function post(registry: TestRegistry, path: string, json: Json): Promise<void> {
  const answer = await registry.call(path, { method: "POST", token: registry.admin, json });
  expect([200, 201], answer.bytes.toString()).toContain(answer.status);
}

const none = {};

/** doc-guard 0.1.1 installed (range ^0.1.1), then 0.2.0 published, 0.1.x under a high advisory, 0.1.1 yanked. */
async function yankedAndAdvised() {
  const registry = await startRegistry();
  await publishGuard(registry, "0.1.0", none, "doc-guard");
  await publishGuard(registry, "0.1.1", none, "doc-guard");
  const ws = await emptyWorkspace();
  expect((await cli(ws, "install", "doc-guard", "--registry", registry.url, "--yes")).code).toBe(0);
  await publishGuard(registry, "0.2.0", none, "doc-guard");
  await post(registry, "/v1/advisories", {
    package: "doc-guard",
    range: "<0.2.0",
    severity: "high",
    text: "lets rm -rf through",
  });
  await post(registry, "/v1/packages/doc-guard/0.1.1/yank", { reason: "see the advisory" });
  return { registry, ws };
}

describe("keeping community hooks current", () => {
  it("audit's advice, followed word for word, leaves an audit with no findings", async () => {
    const { ws } = await yankedAndAdvised();
    const before = await cli(ws, "audit");
    expect(before.code).toBe(1);
    const advice = /what to do: (hookyard [^(]+?) \(/.exec(before.stdout)?.[1];
    expect(advice).toBe("hookyard update doc-guard --latest");
    expect(before.stdout).toContain("it is outside the range ^0.1.1 in hookyard.json");

    const followed = await cli(ws, ...(advice ?? "").split(" ").slice(1), "--yes");
    expect(followed.stderr).toBe("");
    expect(followed.stdout).toContain("updated doc-guard 0.1.1 → 0.2.0");
    expect(followed.code).toBe(0);
    expect(await rangeOf(ws, "doc-guard")).toBe("^0.2.0");

    const after = await cli(ws, "audit");
    expect(after.stdout).toContain("1 package audited: no findings");
    expect(after.code).toBe(0);
  });

  it("update without --latest says the newer version is outside the range, and how to take it", async () => {
    const { ws } = await yankedAndAdvised();
    const result = await cli(ws, "update", "doc-guard", "--yes");
    expect(result.stdout).toBe(
      "doc-guard@0.1.1 is the newest version ^0.1.1 allows; 0.2.0 is outside that range: hookyard update doc-guard --latest\n",
    );
    expect(result.code).toBe(0);
    expect(await rangeOf(ws, "doc-guard")).toBe("^0.1.1");
  });

  it("outdated lists current, wanted and latest, exits 1 while one is behind, 0 once none is", async () => {
    const { ws } = await yankedAndAdvised();
    const behind = await cli(ws, "outdated");
    expect(behind.code).toBe(1);
    expect(behind.stdout).toMatch(/^package +current +wanted +latest +range$/m);
    // 0.1.1 is yanked: the range's newest installable version is 0.1.0, below what is installed.
    expect(behind.stdout).toMatch(/^doc-guard +0\.1\.1 +- +0\.2\.0 +\^0\.1\.1$/m);
    expect(behind.stdout).toContain("`hookyard update <name> --latest`");
    const json = JSON.parse((await cli(ws, "outdated", "--json")).stdout);
    expect(json.packages).toEqual([
      expect.objectContaining({
        name: "doc-guard",
        current: "0.1.1",
        latest: "0.2.0",
        range: "^0.1.1",
        outdated: true,
      }),
    ]);

    expect((await cli(ws, "update", "doc-guard", "--latest", "--yes")).code).toBe(0);
    const current = await cli(ws, "outdated");
    expect(current.stdout).toBe("1 package checked: each is on its newest version\n");
    expect(current.code).toBe(0);
  });

  it("install warns of each advisory naming the version it installs, and records ^version for an exact one", async () => {
    const { registry } = await yankedAndAdvised();
    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "doc-guard@0.1.0", "--registry", registry.url, "--yes");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "doc-guard@0.1.0 has a high advisory (1, versions <0.2.0): lets rm -rf through; `hookyard audit` says what to do",
    );
    expect(await rangeOf(ws, "doc-guard")).toBe("^0.1.0");

    const clean = await emptyWorkspace();
    const latest = await cli(clean, "install", "doc-guard", "--registry", registry.url, "--yes");
    expect(latest.stderr).not.toContain("advisory");
    const pinned = await cli(clean, "install", "doc-guard@=0.2.0", "--registry", registry.url, "--yes");
    expect(pinned.code).toBe(0);
    expect(await rangeOf(clean, "doc-guard")).toBe("=0.2.0");
  });
});
