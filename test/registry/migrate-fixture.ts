import { issueToken } from "../../registry/access/tokens.js";
import { buildRegistry } from "../../registry/app.js";
import { importVersions } from "../../registry/publish/import.js";
import { localActor, type RegistryStore } from "../../registry/store.js";
import { hookPackage } from "./helpers.js";

/** What the fixture registry holds besides its rows: secrets a user has, to try after the move. */
export interface EmbeddedRegistry {
  dataDir: string;
  /** A publish token of alice's that still works, and one that was revoked. */
  aliceToken: string;
  revokedToken: string;
  /** Names of every package, and of those with several versions. */
  names: string[];
}

const owners = ["alice", "bob", "carol"];

/**
 * An embedded registry of `packages` packages, written in-process through the registry's own
 * import and store (not HTTP, which would take minutes): every tenth package has three versions,
 * every fifteenth is scoped (claiming its scope), and there are yanks, deprecations, advisories,
 * extra package and scope owners, tokens (one revoked) and download counts on several days.
 */
export async function buildEmbeddedRegistry(dataDir: string, packages: number): Promise<EmbeddedRegistry> {
  const app = await buildRegistry({ dataDir, now: () => new Date("2026-11-02T10:00:00.000Z") });
  try {
    const { store } = app.registry;
    const names: string[] = [];
    const items = [];
    for (let i = 0; i < packages; i++) {
      const name = i % 15 === 0 ? `@team${i % 4}/hook-${i}` : `hook-${i}`;
      names.push(name);
      const versions = i % 10 === 0 ? ["1.0.0", "1.1.0", "2.0.0-beta.1"] : ["1.0.0"];
      for (const version of versions) {
        items.push({
          name,
          version,
          owner: owners[i % owners.length] as string,
          tarball: await hookPackage({
            name,
            version,
            description: `hook number ${i}`,
            keywords: ["hook", `k${i % 7}`],
          }),
        });
      }
    }
    // In slices, as a registry fills over time (and each slice is one transaction).
    for (let start = 0; start < items.length; start += 300) {
      await importVersions(app.registry, items.slice(start, start + 300), { durable: false });
    }
    await enrich(store, names);
    const alice = await issueToken(store, token("alice"));
    const revoked = await issueToken(store, token("bob"));
    await store.revokeToken(revoked.record.id, "2026-11-02T11:00:00.000Z", localActor);
    return { dataDir, aliceToken: alice.token, revokedToken: revoked.token, names };
  } finally {
    await app.close();
  }
}

function token(owner: string) {
  return {
    owner,
    scope: "publish" as const,
    expiresInMs: null,
    now: new Date("2026-11-02T10:30:00.000Z"),
    actor: localActor,
  };
}

async function enrich(store: RegistryStore, names: string[]): Promise<void> {
  const at = "2026-11-02T10:15:00.000Z";
  const admin = { owner: "admin" };
  const counts = [];
  for (const [i, name] of names.entries()) {
    const found = await store.findPackage(name);
    if (!found) throw new Error(`no package ${name}`);
    const versions = await store.listVersions(found.id);
    if (i % 20 === 0) await store.setYank(name, "1.0.0", `broken ${i}`, at, admin);
    if (i % 25 === 0) await store.setDeprecation(name, "1.0.0", `use hook-${i + 1}`, at, admin);
    if (i % 33 === 0) await store.changeOwners({ package: name }, { add: ["carol"], remove: [] }, at, admin);
    if (i % 40 === 0) {
      await store.createAdvisory(
        { packageName: name, range: "<2.0.0", severity: "high", text: `advisory ${i}`, createdAt: at },
        admin,
      );
    }
    for (const [j, version] of versions.entries()) {
      counts.push({ versionId: version.id, day: "2026-11-01", count: (i % 9) + j + 1 });
      if (i % 3 === 0) counts.push({ versionId: version.id, day: "2026-11-02", count: i + 1 });
    }
  }
  await store.changeOwners({ scope: "@team1" }, { add: ["bob"], remove: [] }, at, admin);
  await store.addDownloads(counts);
}

/** Everything a user can see of a registry through its store, ids included (a row copy keeps them). */
export async function contents(store: RegistryStore, names: readonly string[]) {
  const packages = [];
  for (const name of names) {
    const found = await store.findPackage(name);
    packages.push({
      found,
      versions: found && (await store.listVersions(found.id)),
      owners: await store.packageOwners(name),
    });
  }
  const everything = await store.search("", 5_000, 0);
  return {
    packages,
    tokens: await store.listTokens(),
    advisories: await store.advisoriesFor(names),
    scopes: await Promise.all(["@team0", "@team1", "@team2", "@team3"].map((s) => store.scopeOwners(s))),
    audit: await store.listAudit(100_000, 0),
    searchTotal: everything.total,
    searchNames: everything.results.map((hit) => hit.name).sort(),
    found: (await store.search('"number"* "17"*', 50, 0)).results.map((hit) => hit.name).sort(),
  };
}
