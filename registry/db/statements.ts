import type Database from "better-sqlite3";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { RegistryDatabase } from "./open.js";
import { prepareRaw } from "./raw-statement.js";
import {
  advisories,
  auditLog,
  deprecations,
  owners,
  packageOwners,
  packages,
  scopeOwners,
  tokens,
  versions,
  yanks,
} from "./schema.js";
import { prepareVersionStatements } from "./version-rows.js";

const p = sql.placeholder;

/**
 * Every statement the store runs, prepared once when the store opens: preparing a statement costs
 * more than running it. Most are built with drizzle; the version rows, search and download counts
 * are raw SQL on the hot paths (drizzle maps each row through nested objects, a fifth of a
 * metadata read), and FTS5 is raw since drizzle does not model virtual tables.
 */
export function prepareStatements(db: RegistryDatabase) {
  const client = db.$client;
  return {
    ...prepareVersionStatements(client),
    ...tokenStatements(db),
    ...ownerStatements(db),
    ...packageStatements(db),
    ...searchStatements(client),
    ...downloadStatements(client),
    ...advisoryStatements(db),
    insertAudit: db
      .insert(auditLog)
      .values({
        at: p("at"),
        actor: p("actor"),
        tokenId: p("tokenId"),
        action: p("action"),
        subject: p("subject"),
        details: p("details"),
      })
      .prepare(),
    auditPage: db
      .select()
      .from(auditLog)
      .orderBy(desc(auditLog.id))
      .limit(p("limit"))
      .offset(p("offset"))
      .prepare(),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

function tokenStatements(db: RegistryDatabase) {
  const withOwner = () =>
    db
      .select({ token: tokens, owner: owners.name })
      .from(tokens)
      .innerJoin(owners, eq(owners.id, tokens.ownerId));
  const newestFirst = [desc(tokens.createdAt), desc(sql`${tokens}.rowid`)];
  return {
    anyToken: db.select({ id: tokens.id }).from(tokens).limit(1).prepare(),
    tokenByHash: withOwner()
      .where(eq(tokens.hash, p("hash")))
      .prepare(),
    tokenById: withOwner()
      .where(eq(tokens.id, p("id")))
      .prepare(),
    allTokens: withOwner()
      .orderBy(...newestFirst)
      .prepare(),
    tokensOfOwner: withOwner()
      .where(eq(owners.name, p("owner")))
      .orderBy(...newestFirst)
      .prepare(),
    insertToken: db
      .insert(tokens)
      .values({
        id: p("id"),
        ownerId: p("ownerId"),
        hash: p("hash"),
        scope: p("scope"),
        description: p("description"),
        createdAt: p("createdAt"),
        expiresAt: p("expiresAt"),
      })
      .prepare(),
    revokeToken: db
      .update(tokens)
      .set({ revokedAt: sql`${p("at")}` })
      .where(and(eq(tokens.id, p("id")), sql`${tokens.revokedAt} IS NULL`))
      .prepare(),
  };
}

function ownerStatements(db: RegistryDatabase) {
  return {
    ownerIdByName: db
      .select({ id: owners.id })
      .from(owners)
      .where(eq(owners.name, p("name")))
      .prepare(),
    insertOwner: db
      .insert(owners)
      .values({ name: p("name"), createdAt: p("createdAt") })
      .returning({ id: owners.id })
      .prepare(),
    ownersOfPackage: db
      .select({ name: owners.name })
      .from(packageOwners)
      .innerJoin(owners, eq(owners.id, packageOwners.ownerId))
      .where(eq(packageOwners.packageId, p("packageId")))
      .orderBy(owners.name)
      .prepare(),
    ownersOfScope: db
      .select({ name: owners.name })
      .from(scopeOwners)
      .innerJoin(owners, eq(owners.id, scopeOwners.ownerId))
      .where(eq(scopeOwners.scope, p("scope")))
      .orderBy(owners.name)
      .prepare(),
    insertPackageOwner: db
      .insert(packageOwners)
      .values({ packageId: p("packageId"), ownerId: p("ownerId"), addedAt: p("addedAt") })
      .prepare(),
    deletePackageOwner: db
      .delete(packageOwners)
      .where(and(eq(packageOwners.packageId, p("packageId")), eq(packageOwners.ownerId, p("ownerId"))))
      .prepare(),
    insertScopeOwner: db
      .insert(scopeOwners)
      .values({ scope: p("scope"), ownerId: p("ownerId"), addedAt: p("addedAt") })
      .prepare(),
    deleteScopeOwner: db
      .delete(scopeOwners)
      .where(and(eq(scopeOwners.scope, p("scope")), eq(scopeOwners.ownerId, p("ownerId"))))
      .prepare(),
  };
}

function packageStatements(db: RegistryDatabase) {
  return {
    packageByName: db
      .select({
        id: packages.id,
        name: packages.name,
        createdAt: packages.createdAt,
        downloads: packages.downloads,
      })
      .from(packages)
      .where(eq(packages.name, p("name")))
      .prepare(),
    packagesWithSkeleton: db
      .select({ id: packages.id, name: packages.name })
      .from(packages)
      .where(eq(packages.skeleton, p("skeleton")))
      .prepare(),
    insertPackage: db
      .insert(packages)
      .values({ name: p("name"), skeleton: p("skeleton"), createdAt: p("createdAt") })
      .returning({ id: packages.id })
      .prepare(),
    versionIdOf: db
      .select({ id: versions.id })
      .from(versions)
      .where(and(eq(versions.packageId, p("packageId")), eq(versions.version, p("version"))))
      .prepare(),
    versionStates: db
      .select({
        id: versions.id,
        version: versions.version,
        prerelease: versions.prerelease,
        yanked: yanks.versionId,
      })
      .from(versions)
      .leftJoin(yanks, eq(yanks.versionId, versions.id))
      .where(eq(versions.packageId, p("packageId")))
      .prepare(),
    manifestOf: db
      .select({ manifest: versions.manifest })
      .from(versions)
      .where(eq(versions.id, p("id")))
      .prepare(),
    insertVersion: db
      .insert(versions)
      .values({
        packageId: p("packageId"),
        version: p("version"),
        prerelease: p("prerelease"),
        integrity: p("integrity"),
        size: p("size"),
        manifest: p("manifest"),
        capabilities: p("capabilities"),
        effects: p("effects"),
        readme: p("readme"),
        publishedAt: p("publishedAt"),
        publishedBy: p("publishedBy"),
        signature: p("signature"),
        keyId: p("keyId"),
      })
      .returning({ id: versions.id })
      .prepare(),
    storedIntegrities: db.selectDistinct({ integrity: versions.integrity }).from(versions).prepare(),
    versionWithIntegrity: db
      .select({ id: versions.id })
      .from(versions)
      .where(eq(versions.integrity, p("integrity")))
      .limit(1)
      .prepare(),
    deleteYank: db
      .delete(yanks)
      .where(eq(yanks.versionId, p("versionId")))
      .prepare(),
    insertYank: db
      .insert(yanks)
      .values({ versionId: p("versionId"), reason: p("reason"), yankedAt: p("at"), ownerId: p("ownerId") })
      .prepare(),
    deleteDeprecation: db
      .delete(deprecations)
      .where(eq(deprecations.versionId, p("versionId")))
      .prepare(),
    insertDeprecation: db
      .insert(deprecations)
      .values({
        versionId: p("versionId"),
        message: p("message"),
        deprecatedAt: p("at"),
        ownerId: p("ownerId"),
      })
      .prepare(),
  };
}

/** A search hit as the statements return it; keywords are the JSON text of the index row. */
export interface SearchRow {
  name: string;
  description: string;
  keywords: string;
  version: string;
  downloads: number;
}

/** A package's listing facts as the statement returns them; JSON columns as text. */
export interface ListingRow {
  name: string;
  capabilities: string;
  effects: string;
  lastPublishedAt: string;
}

/** A browse row: a search row with its listing facts, and how many rows the whole view holds. */
export interface BrowseRow extends SearchRow, ListingRow {
  total: number;
}

/** Named parameters of the browse statements; null leaves a filter out. limit -1 is every row. */
export interface BrowseParams {
  match?: string;
  sort: string;
  owner: string | null;
  keyword: string | null;
  point: string | null;
  limit: number;
  offset: number;
}

/**
 * One statement with FTS5 matching (bm25 exists only in a MATCH query) and one without. Filters are
 * optional parameters and the order a CASE, so the two serve every view; a filtered view reads the
 * rows it keeps, which a catalogue of thousands affords.
 */
function browseStatement(client: Database.Database, matching: boolean) {
  return prepareRaw<[BrowseParams], BrowseRow>(
    client,
    `WITH hits AS (
       SELECT s.name AS name, s.description AS description, s.keywords AS keywords,
         s.version AS version, p.downloads AS downloads,
         v.capabilities AS capabilities, v.effects AS effects,
         (SELECT max(w.published_at) FROM versions w WHERE w.package_id = p.id) AS lastPublishedAt,
         ${matching ? "bm25(package_search, 10.0, 2.0, 5.0)" : "0.0"} AS rank
       FROM package_search s
       JOIN packages p ON p.id = s.rowid
       JOIN versions v ON v.package_id = p.id AND v.version = s.version
       WHERE ${matching ? "package_search MATCH @match" : "1"}
         AND (@owner IS NULL OR EXISTS (SELECT 1 FROM package_owners po JOIN owners o ON o.id = po.owner_id
              WHERE po.package_id = p.id AND o.name = @owner))
         AND (@keyword IS NULL OR EXISTS (SELECT 1 FROM json_each(s.keywords) k WHERE k.value = @keyword))
         AND (@point IS NULL OR EXISTS (SELECT 1 FROM json_each(v.manifest, '$.hookyard.events') e
              WHERE e.value = @point))
     )
     SELECT name, description, keywords, version, downloads, capabilities, effects, lastPublishedAt,
       count(*) OVER () AS total
     FROM hits
     ORDER BY
       CASE WHEN @sort = 'relevance' THEN rank END,
       CASE WHEN @sort IN ('relevance', 'downloads') THEN downloads END DESC,
       CASE WHEN @sort = 'updated' THEN lastPublishedAt END DESC,
       name
     LIMIT @limit OFFSET @offset`,
  );
}

function searchStatements(client: Database.Database) {
  const columns = `s.name AS name, s.description AS description, s.keywords AS keywords,
    s.version AS version, p.downloads AS downloads`;
  return {
    deleteSearchRow: prepareRaw<[number]>(client, "DELETE FROM package_search WHERE rowid = ?"),
    insertSearchRow: prepareRaw<[number, string, string, string, string]>(
      client,
      "INSERT INTO package_search (rowid, name, description, keywords, version) VALUES (?, ?, ?, ?, ?)",
    ),
    everyPackage: prepareRaw<[number, number], SearchRow>(
      client,
      `SELECT ${columns} FROM package_search s JOIN packages p ON p.id = s.rowid
       ORDER BY p.downloads DESC, s.name LIMIT ? OFFSET ?`,
    ),
    countEveryPackage: prepareRaw<[], { n: number }>(client, "SELECT count(*) AS n FROM package_search"),
    // Weights: a hit in the name counts most, then keywords, then the description.
    matchingPackages: prepareRaw<[string, number, number], SearchRow>(
      client,
      `SELECT ${columns} FROM package_search s JOIN packages p ON p.id = s.rowid
       WHERE package_search MATCH ?
       ORDER BY bm25(package_search, 10.0, 2.0, 5.0), p.downloads DESC, s.name
       LIMIT ? OFFSET ?`,
    ),
    countMatchingPackages: prepareRaw<[string], { n: number }>(
      client,
      "SELECT count(*) AS n FROM package_search WHERE package_search MATCH ?",
    ),
    // Newest first through versions_published_at_idx: a reader that stops early reads only the newest.
    publishesNewestFirst: prepareRaw<[], { packageId: number; publishedAt: string }>(
      client,
      "SELECT package_id AS packageId, published_at AS publishedAt FROM versions ORDER BY published_at DESC",
    ),
    searchRowsOfIds: prepareRaw<[string], SearchRow & { id: number }>(
      client,
      `SELECT ${columns}, p.id AS id FROM package_search s JOIN packages p ON p.id = s.rowid
       WHERE p.id IN (SELECT value FROM json_each(?))`,
    ),
    browseEvery: browseStatement(client, false),
    browseMatching: browseStatement(client, true),
    // The names arrive as one JSON array, so one statement serves any number of them.
    listingFacts: prepareRaw<[string], ListingRow>(
      client,
      `SELECT p.name AS name, v.capabilities AS capabilities, v.effects AS effects,
         (SELECT max(w.published_at) FROM versions w WHERE w.package_id = p.id) AS lastPublishedAt
       FROM packages p
       JOIN package_search s ON s.rowid = p.id
       JOIN versions v ON v.package_id = p.id AND v.version = s.version
       WHERE p.name IN (SELECT value FROM json_each(?))`,
    ),
  };
}

function downloadStatements(client: Database.Database) {
  return {
    addVersionDownloads: prepareRaw<[number, string, number]>(
      client,
      `INSERT INTO download_counts (version_id, day, count) VALUES (?, ?, ?)
       ON CONFLICT (version_id, day) DO UPDATE SET count = count + excluded.count`,
    ),
    addPackageDownloads: prepareRaw<[number, number]>(
      client,
      "UPDATE packages SET downloads = downloads + ? WHERE id = (SELECT package_id FROM versions WHERE id = ?)",
    ),
  };
}

function advisoryStatements(db: RegistryDatabase) {
  return {
    insertAdvisory: db
      .insert(advisories)
      .values({
        packageName: p("packageName"),
        range: p("range"),
        severity: p("severity"),
        text: p("text"),
        createdAt: p("createdAt"),
        createdBy: p("createdBy"),
      })
      .returning({ id: advisories.id })
      .prepare(),
    // The names arrive as one JSON array, so one statement serves any number of them.
    advisoriesOfNames: db
      .select({ advisory: advisories, createdBy: owners.name })
      .from(advisories)
      .innerJoin(owners, eq(owners.id, advisories.createdBy))
      .where(inArray(advisories.packageName, sql`(SELECT value FROM json_each(${p("names")}))`))
      .orderBy(advisories.id)
      .prepare(),
  };
}
