import { describe, expect, it } from "vitest";
import { hookPackage, publish, startRegistry, type TestRegistry } from "../helpers.js";

/** A registry whose clock moves a minute per publish, so publish times differ and order is known. */
async function registryWithClock() {
  let minute = 0;
  const reg = await startRegistry({ now: () => new Date(Date.UTC(2026, 0, 1, 12, minute)) });
  const publishAt = async (at: number, name: string, version: string, manifest?: Record<string, unknown>) => {
    minute = at;
    const answer = await publish(
      reg,
      reg.admin,
      await hookPackage({ name, version, manifest }),
      name,
      version,
    );
    expect(answer.status).toBe(201);
  };
  return { reg, publishAt };
}

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString();
const store = (reg: TestRegistry) => reg.app.registry.store;
const asks = (capabilities: Record<string, unknown>, effects: string[] = []) => ({
  hookyard: { main: "dist/hook.js", events: ["tool_before"], capabilities, effects },
});

describe("the store's reads for listings", () => {
  it("recentlyPublished orders packages by their newest publish of any version, a prerelease included", async () => {
    const { reg, publishAt } = await registryWithClock();
    await publishAt(1, "alpha", "1.0.0");
    await publishAt(2, "bravo", "1.0.0");
    await publishAt(3, "charlie", "1.0.0");
    await publishAt(4, "alpha", "2.0.0-beta.1");
    const names = (await store(reg).recentlyPublished(10)).map((hit) => hit.name);
    expect(names).toEqual(["alpha", "charlie", "bravo"]);
    expect(await store(reg).recentlyPublished(2)).toMatchObject([
      // Listed as search lists it: by the version search shows, not the prerelease.
      { name: "alpha", version: "1.0.0", description: "the alpha hook", keywords: ["hook"], downloads: 0 },
      { name: "charlie" },
    ]);
  });

  it("recentlyPublished breaks ties of publish time by name, also across the limit", async () => {
    const { reg, publishAt } = await registryWithClock();
    await publishAt(1, "zulu", "1.0.0");
    await publishAt(2, "yankee", "1.0.0");
    await publishAt(2, "xray", "1.0.0");
    await publishAt(2, "whiskey", "1.0.0");
    const names = async (limit: number) => (await store(reg).recentlyPublished(limit)).map((hit) => hit.name);
    expect(await names(2)).toEqual(["whiskey", "xray"]);
    expect(await names(4)).toEqual(["whiskey", "xray", "yankee", "zulu"]);
    expect(await names(0)).toEqual([]);
  });

  it("listingFacts gives the last publish and what the shown version asks for; unknown names are left out", async () => {
    const { reg, publishAt } = await registryWithClock();
    await publishAt(1, "guard", "1.0.0", asks({ process: ["git"] }, ["block"]));
    await publishAt(5, "guard", "2.0.0-rc.1", asks({ fs: { write: ["."] } }, ["block", "rewrite"]));
    await publishAt(7, "@acme/notes", "0.1.0", asks({}));
    const facts = await store(reg).listingFacts(["guard", "@acme/notes", "missing", "guard"]);
    expect([...facts.keys()].sort()).toEqual(["@acme/notes", "guard"]);
    expect(facts.get("guard")).toEqual({
      lastPublishedAt: at(5),
      capabilities: ["process:git"],
      effects: ["block"],
    });
    expect(facts.get("@acme/notes")).toEqual({ lastPublishedAt: at(7), capabilities: [], effects: [] });
    expect((await store(reg).listingFacts([])).size).toBe(0);
  });

  it("a yank moves what listingFacts shows to the version search shows next", async () => {
    const { reg, publishAt } = await registryWithClock();
    await publishAt(1, "guard", "1.0.0", asks({ env: ["HOME"] }));
    await publishAt(2, "guard", "1.1.0", asks({ process: ["curl"] }));
    const answer = await reg.call("/v1/packages/guard/1.1.0/yank", {
      method: "POST",
      token: reg.admin,
      json: { reason: "runs curl" },
    });
    expect(answer.status).toBe(200);
    expect((await store(reg).listingFacts(["guard"])).get("guard")).toEqual({
      lastPublishedAt: at(2),
      capabilities: ["env:HOME"],
      effects: [],
    });
  });
});
