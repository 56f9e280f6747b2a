import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { AdvisorySeverity, TokenScope } from "../schema.js";

/**
 * The registry's tables on PostgreSQL: the same tables, columns and meaning as the sqlite schema
 * (../schema.ts, whose comments say what each holds), in PostgreSQL's types. Times stay ISO 8601
 * text so both stores compare and sort them alike. Two tables exist only here: `package_search`
 * (a tsvector with a GIN index, where sqlite has FTS5) and `registry_settings` (what every
 * process on the database must share, such as the signing key).
 */

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const owners = pgTable("owners", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  createdAt: text("created_at").notNull(),
});

export const tokens = pgTable(
  "tokens",
  {
    id: text("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => owners.id),
    hash: text("hash").notNull(),
    scope: text("scope").$type<TokenScope>().notNull(),
    description: text("description"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    /** Insertion order, for "newest first" among tokens made in the same millisecond (sqlite's rowid). */
    seq: serial("seq").notNull(),
  },
  (t) => [uniqueIndex("tokens_hash_unique").on(t.hash), index("tokens_owner_idx").on(t.ownerId)],
);

export const packages = pgTable(
  "packages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    skeleton: text("skeleton").notNull(),
    createdAt: text("created_at").notNull(),
    downloads: integer("downloads").notNull().default(0),
  },
  (t) => [uniqueIndex("packages_name_unique").on(t.name), index("packages_skeleton_idx").on(t.skeleton)],
);

export const packageOwners = pgTable(
  "package_owners",
  {
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => owners.id),
    addedAt: text("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.ownerId] })],
);

export const scopeOwners = pgTable(
  "scope_owners",
  {
    scope: text("scope").notNull(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => owners.id),
    addedAt: text("added_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.ownerId] })],
);

export const versions = pgTable(
  "versions",
  {
    id: serial("id").primaryKey(),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id),
    version: text("version").notNull(),
    prerelease: boolean("prerelease").notNull(),
    integrity: text("integrity").notNull(),
    size: integer("size").notNull(),
    manifest: jsonb("manifest").notNull().$type<Record<string, unknown>>(),
    capabilities: jsonb("capabilities").notNull().$type<string[]>(),
    effects: jsonb("effects").notNull().$type<string[]>(),
    readme: text("readme"),
    publishedAt: text("published_at").notNull(),
    publishedBy: integer("published_by")
      .notNull()
      .references(() => owners.id),
    signature: text("signature").notNull(),
    keyId: text("key_id").notNull(),
  },
  (t) => [
    uniqueIndex("versions_package_version_unique").on(t.packageId, t.version),
    index("versions_integrity_idx").on(t.integrity),
    index("versions_published_at_idx").on(t.publishedAt),
  ],
);

export const yanks = pgTable("yanks", {
  versionId: integer("version_id")
    .primaryKey()
    .references(() => versions.id),
  reason: text("reason").notNull(),
  yankedAt: text("yanked_at").notNull(),
  ownerId: integer("owner_id")
    .notNull()
    .references(() => owners.id),
});

export const deprecations = pgTable("deprecations", {
  versionId: integer("version_id")
    .primaryKey()
    .references(() => versions.id),
  message: text("message").notNull(),
  deprecatedAt: text("deprecated_at").notNull(),
  ownerId: integer("owner_id")
    .notNull()
    .references(() => owners.id),
});

export const advisories = pgTable(
  "advisories",
  {
    id: serial("id").primaryKey(),
    packageName: text("package_name").notNull(),
    range: text("range").notNull(),
    severity: text("severity").$type<AdvisorySeverity>().notNull(),
    text: text("text").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: integer("created_by")
      .notNull()
      .references(() => owners.id),
  },
  (t) => [index("advisories_package_idx").on(t.packageName)],
);

export const downloadCounts = pgTable(
  "download_counts",
  {
    versionId: integer("version_id")
      .notNull()
      .references(() => versions.id),
    day: text("day").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.day] })],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: serial("id").primaryKey(),
    at: text("at").notNull(),
    actor: text("actor").notNull(),
    tokenId: text("token_id"),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>(),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);

/**
 * What search shows of each package (its shown version's description and keywords) and the
 * weighted tsvector it is found by: name A, keywords B, description C, as FTS5's bm25 weights
 * (name 10, keywords 5, description 2) rank them in the sqlite store.
 */
export const packageSearch = pgTable(
  "package_search",
  {
    packageId: integer("package_id")
      .primaryKey()
      .references(() => packages.id),
    name: text("name").notNull(),
    description: text("description").notNull(),
    keywords: jsonb("keywords").notNull().$type<string[]>(),
    version: text("version").notNull(),
    document: tsvector("document").notNull(),
  },
  (t) => [index("package_search_document_idx").using("gin", t.document)],
);

/** One row per shared setting (`signing_key`: the ed25519 private key, PEM). */
export const registrySettings = pgTable("registry_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: text("created_at").notNull(),
});
