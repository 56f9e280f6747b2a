import { describe, expect, it } from "vitest";
import {
  describeEachBackend,
  hookPackage,
  publish,
  startRegistry,
  type TestRegistry,
  tokenFor,
} from "../helpers.js";

/**
 * Browse (GET /) as its address says: sorted by downloads, recent updates or name, filtered by
 * risk, point, owner and keyword, each view a link that gives it back; a bad value is a 400 page
 * saying which and what is allowed. The listings run on each metadata store (sqlite, PostgreSQL).
 */

const cardNames = (markup: string) =>
  [...markup.matchAll(/<h3><a href="\/packages\/([^"]+)">/g)].map((m) => m[1] ?? "");

/** The listing's cards, after the recently published ones a front page shows first. */
async function listed(reg: TestRegistry, path: string): Promise<string[]> {
  const answer = await reg.call(path);
  const page = answer.bytes.toString();
  expect(answer.status, page).toBe(200);
  return cardNames(page.slice(page.indexOf('class="browse-results"')));
}

interface Seeded {
  name: string;
  owner: string;
  keywords: string[];
  events: string[];
  capabilities: Record<string, unknown>;
  downloads: number;
}

const catalogue: Seeded[] = [
  // medium risk
  {
    name: "alpha-net",
    owner: "alice",
    keywords: ["net"],
    events: ["tool_before"],
    capabilities: { net: ["api.example.com:443"] },
    downloads: 1,
  },
  // high risk
  {
    name: "beta-git",
    owner: "bob",
    keywords: ["git"],
    events: ["tool_after"],
    capabilities: { process: ["git"] },
    downloads: 3,
  },
  // low risk
  {
    name: "gamma-plain",
    owner: "alice",
    keywords: ["git", "docs"],
    events: ["turn_before", "tool_before"],
    capabilities: {},
    downloads: 2,
  },
];

async function seeded(): Promise<TestRegistry> {
  let minute = 0;
  const reg = await startRegistry({ now: () => new Date(Date.UTC(2026, 0, 1, 12, minute++)) });
  const tokens = new Map<string, string>();
  for (const owner of ["alice", "bob"]) tokens.set(owner, await tokenFor(reg, owner));
  for (const spec of catalogue) {
    const tarball = await hookPackage({
      name: spec.name,
      keywords: spec.keywords,
      manifest: {
        hookyard: {
          main: "dist/hook.js",
          events: spec.events,
          capabilities: spec.capabilities,
          effects: ["block"],
        },
      },
    });
    const answer = await publish(reg, tokens.get(spec.owner) ?? "", tarball, spec.name);
    expect(answer.status, answer.bytes.toString()).toBe(201);
    for (let i = 0; i < spec.downloads; i++) await reg.call(`/v1/packages/${spec.name}/1.0.0/tarball`);
  }
  await reg.app.registry.downloads.flush();
  return reg;
}

describeEachBackend("browse with sort and filters", () => {
  it("sorts by downloads (the default), recently updated and name", async () => {
    const reg = await seeded();
    expect(await listed(reg, "/")).toEqual(["beta-git", "gamma-plain", "alpha-net"]);
    expect(await listed(reg, "/?sort=downloads")).toEqual(["beta-git", "gamma-plain", "alpha-net"]);
    expect(await listed(reg, "/?sort=updated")).toEqual(["gamma-plain", "beta-git", "alpha-net"]);
    expect(await listed(reg, "/?sort=name")).toEqual(["alpha-net", "beta-git", "gamma-plain"]);
    // With words, best match first unless another order is asked for.
    expect(await listed(reg, "/?q=hook&sort=name")).toEqual(["alpha-net", "beta-git", "gamma-plain"]);
    // A match in the name ranks above one in the keywords, whatever the downloads say.
    expect(await listed(reg, "/?q=git")).toEqual(["beta-git", "gamma-plain"]);
    expect(await listed(reg, "/?q=plain")).toEqual(["gamma-plain"]);
    expect(await listed(reg, "/?q=nothing-like-this")).toEqual([]);
  });

  it("filters by risk level, hook point, owner and keyword, alone and together", async () => {
    const reg = await seeded();
    expect(await listed(reg, "/?risk=high")).toEqual(["beta-git"]);
    expect(await listed(reg, "/?risk=medium")).toEqual(["alpha-net"]);
    expect(await listed(reg, "/?risk=low")).toEqual(["gamma-plain"]);
    expect(await listed(reg, "/?point=tool_before&sort=name")).toEqual(["alpha-net", "gamma-plain"]);
    expect(await listed(reg, "/?point=tool_after")).toEqual(["beta-git"]);
    expect(await listed(reg, "/?point=notify")).toEqual([]);
    expect(await listed(reg, "/?owner=alice")).toEqual(["gamma-plain", "alpha-net"]);
    expect(await listed(reg, "/?keyword=git")).toEqual(["beta-git", "gamma-plain"]);
    expect(await listed(reg, "/?keyword=git&risk=low")).toEqual(["gamma-plain"]);
    expect(await listed(reg, "/?owner=alice&point=tool_before&sort=updated")).toEqual([
      "gamma-plain",
      "alpha-net",
    ]);
    // The form's "any" sends an empty value: no filter.
    expect(await listed(reg, "/?sort=name&risk=&point=")).toEqual(["alpha-net", "beta-git", "gamma-plain"]);

    const page = (await reg.call("/?owner=alice&risk=low")).bytes.toString();
    expect(page).toContain("1 hook, owned by alice, of low risk");
    expect(page).toContain('<a href="/?owner=alice" aria-label="Remove the risk filter">remove</a>');
    expect(page).toContain('<option value="low" selected>low risk</option>');
    expect(page).toContain('<input type="hidden" name="owner" value="alice">');
  });

  it("owner and keyword links on a package page lead to browse filtered by them", async () => {
    const reg = await seeded();
    const page = (await reg.call("/packages/gamma-plain")).bytes.toString();
    expect(page).toContain('<dt>Owners</dt><dd><a href="/?owner=alice">alice</a></dd>');
    expect(page).toContain('<a href="/?keyword=git">git</a>, <a href="/?keyword=docs">docs</a>');
    expect(await listed(reg, "/?keyword=docs")).toEqual(["gamma-plain"]);
  });

  it("a filtered view pages 20 at a time and keeps its filters in the page links", async () => {
    const reg = await startRegistry();
    const names = Array.from({ length: 22 }, (_, i) => `low-${String(i).padStart(2, "0")}`);
    for (const name of [...names, "risky"]) {
      const capabilities = name === "risky" ? { process: ["git"] } : {};
      const tarball = await hookPackage({
        name,
        manifest: { hookyard: { main: "dist/hook.js", events: ["tool_before"], capabilities, effects: [] } },
      });
      expect((await publish(reg, reg.admin, tarball, name)).status).toBe(201);
    }
    const first = (await reg.call("/?risk=low&sort=name")).bytes.toString();
    expect(cardNames(first.slice(first.indexOf('class="browse-results"')))).toEqual(names.slice(0, 20));
    expect(first).toContain("22 hooks, of low risk");
    expect(first).toContain('<a href="/?sort=name&amp;risk=low&amp;page=2" rel="next">Next page</a>');
    expect(await listed(reg, "/?sort=name&risk=low&page=2")).toEqual(names.slice(20));
    const past = (await reg.call("/?sort=name&risk=low&page=3")).bytes.toString();
    expect(past).toContain("There are only 2 pages of results.");
  });

  it("escapes an owner or keyword from the address wherever the page repeats it", async () => {
    const reg = await seeded();
    const hostile = `<script>window.__pwned=1</script>"'`;
    const answer = await reg.call(
      `/?owner=${encodeURIComponent(hostile)}&keyword=${encodeURIComponent(hostile)}`,
    );
    const page = answer.bytes.toString();
    expect(answer.status).toBe(200);
    expect(page).not.toContain("<script>window");
    expect(page).toContain("owned by &lt;script&gt;window.__pwned=1&lt;/script&gt;&quot;&#39;");
    expect(page).toContain('name="keyword" value="&lt;script&gt;window.__pwned=1&lt;/script&gt;&quot;&#39;"');
  });
});

describe("browse refusing a bad address", () => {
  it.each([
    ["/?sort=popularity", "The sort order (sort) must be one of relevance, downloads, updated, name."],
    ["/?risk=extreme", "The risk level (risk) must be one of low, medium, high."],
    ["/?point=tool_befor", "The hook point (point) must be one of agent_before,"],
    ["/?sort=name&sort=updated", "The sort order (sort) must be one of"],
    [`/?owner=${"x".repeat(215)}`, "The owner name (owner) is at most 214 characters."],
  ])("%s is a 400 page saying what is allowed", async (path, message) => {
    const reg = await startRegistry();
    const answer = await reg.call(path);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(answer.bytes.toString()).toContain(message);
  });
});
