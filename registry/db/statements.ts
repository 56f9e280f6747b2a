import type Database from "better-sqlite3";
import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { RegistryDatabase } from "./open.js";
import {
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

const publisher = alias(owners, "publisher");
const yanker = alias(owners, "yanker");
const deprecator = alias(owners, "deprecator");

const p = sql.placeholder;

/** A version row with its package name, publisher, yank and deprecation. */
export function versionQuery(db: RegistryDatabase) {
  return db
    .select({
      v: versions,
      name: packages.name,
      publishedBy: publisher.name,
      yank: yanks,
      yankedBy: yanker.name,
      deprecation: deprecations,
      deprecatedBy: deprecator.name,
    })
    .from(versions)
    .innerJoin(packages, eq(packages.id, versions.packageId))
    .innerJoin(publisher, eq(publisher.id, versions.publishedBy))
    .leftJoin(yanks, eq(yanks.versionId, versions.id))
    .leftJoin(yanker, eq(yanker.id, yanks.ownerId))
    .leftJoin(deprecations, eq(deprecations.versionId, versions.id))
    .leftJoin(deprecator, eq(deprecator.id, deprecations.ownerId));
}

/**
 * The statements on the hot paths (every authenticated request, every metadata read, every
 * publish), prepared once: preparing a statement costs more than running it. FTS5 statements are
 * raw SQL, since drizzle does not model virtual tables.
 */
export function prepareStatements(db: RegistryDatabase) {
  const client = db.$client;
  return {
    tokenByHash: db
      .select({ token: tokens, owner: owners.name })
      .from(tokens)
      .innerJoin(owners, eq(owners.id, tokens.ownerId))
      .where(eq(tokens.hash, p("hash")))
      .prepare(),
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
    versionsOfPackage: versionQuery(db)
      .where(eq(versions.packageId, p("packageId")))
      .orderBy(versions.id)
      .prepare(),
    versionByName: versionQuery(db)
      .where(and(eq(packages.name, p("name")), eq(versions.version, p("version"))))
      .prepare(),
    versionWithId: versionQuery(db)
      .where(eq(versions.id, p("id")))
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
    ownerIdByName: db
      .select({ id: owners.id })
      .from(owners)
      .where(eq(owners.name, p("name")))
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
    deleteSearchRow: client.prepare("DELETE FROM package_search WHERE rowid = ?") as Database.Statement<
      [number]
    >,
    insertSearchRow: client.prepare(
      "INSERT INTO package_search (rowid, name, description, keywords, version) VALUES (?, ?, ?, ?, ?)",
    ) as Database.Statement<[number, string, string, string, string]>,
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
