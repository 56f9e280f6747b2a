import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The registry's tables. Times are ISO 8601 text (readable with the sqlite3 shell); JSON columns
 * hold data that is only ever read whole. Version rows are never updated: yanks and deprecations
 * live in their own tables, so the published facts (integrity, signature) stay as they were written.
 * The full-text index `package_search` (FTS5) is created by a hand-written migration, since
 * drizzle-kit does not model virtual tables.
 */

/** A publisher: who owns packages and scopes, and whom tokens belong to. */
export const owners = sqliteTable("owners", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  createdAt: text("created_at").notNull(),
});

export const tokenScopes = ["read", "publish", "admin"] as const;
export type TokenScope = (typeof tokenScopes)[number];

export const tokens = sqliteTable(
  "tokens",
  {
    /** Public id, shown in lists and used to revoke; not a secret. */
    id: text("id").primaryKey(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => owners.id),
    /** sha256 hex of the secret; the secret itself is never stored. */
    hash: text("hash").notNull(),
    scope: text("scope", { enum: tokenScopes }).notNull(),
    description: text("description"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("tokens_hash_unique").on(t.hash), index("tokens_owner_idx").on(t.ownerId)],
);

export const packages = sqliteTable(
  "packages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /** The name with case, `.`, `-` and `_` removed: two names with one skeleton are confusable. */
    skeleton: text("skeleton").notNull(),
    createdAt: text("created_at").notNull(),
    /** Sum of download_counts for the package, kept here so search can rank without a join. */
    downloads: integer("downloads").notNull().default(0),
  },
  (t) => [uniqueIndex("packages_name_unique").on(t.name), index("packages_skeleton_idx").on(t.skeleton)],
);

export const packageOwners = sqliteTable(
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

/** Owners of an `@scope`: they may publish new packages in it. The first publisher claims it. */
export const scopeOwners = sqliteTable(
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

export const versions = sqliteTable(
  "versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id),
    version: text("version").notNull(),
    prerelease: integer("prerelease", { mode: "boolean" }).notNull(),
    /** SRI sha512 of the tarball, computed by the server. */
    integrity: text("integrity").notNull(),
    size: integer("size").notNull(),
    /** The validated package.json. */
    manifest: text("manifest", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    /** Requested capabilities as grant strings (sandbox/capabilities.ts requestedGrants). */
    capabilities: text("capabilities", { mode: "json" }).notNull().$type<string[]>(),
    effects: text("effects", { mode: "json" }).notNull().$type<string[]>(),
    readme: text("readme"),
    publishedAt: text("published_at").notNull(),
    publishedBy: integer("published_by")
      .notNull()
      .references(() => owners.id),
    /** ed25519 signature (base64) over `name@version:integrity`. */
    signature: text("signature").notNull(),
    keyId: text("key_id").notNull(),
  },
  (t) => [
    uniqueIndex("versions_package_version_unique").on(t.packageId, t.version),
    index("versions_integrity_idx").on(t.integrity),
    // The front page's recently published hooks: newest publishes first, without reading them all.
    index("versions_published_at_idx").on(t.publishedAt),
  ],
);

export const yanks = sqliteTable("yanks", {
  versionId: integer("version_id")
    .primaryKey()
    .references(() => versions.id),
  reason: text("reason").notNull(),
  yankedAt: text("yanked_at").notNull(),
  ownerId: integer("owner_id")
    .notNull()
    .references(() => owners.id),
});

export const deprecations = sqliteTable("deprecations", {
  versionId: integer("version_id")
    .primaryKey()
    .references(() => versions.id),
  message: text("message").notNull(),
  deprecatedAt: text("deprecated_at").notNull(),
  ownerId: integer("owner_id")
    .notNull()
    .references(() => owners.id),
});

export const advisorySeverities = ["low", "moderate", "high", "critical"] as const;
export type AdvisorySeverity = (typeof advisorySeverities)[number];

export const advisories = sqliteTable(
  "advisories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** A name, not a foreign key: an advisory may precede (or outlive) the package. */
    packageName: text("package_name").notNull(),
    range: text("range").notNull(),
    severity: text("severity", { enum: advisorySeverities }).notNull(),
    text: text("text").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: integer("created_by")
      .notNull()
      .references(() => owners.id),
  },
  (t) => [index("advisories_package_idx").on(t.packageName)],
);

export const downloadCounts = sqliteTable(
  "download_counts",
  {
    versionId: integer("version_id")
      .notNull()
      .references(() => versions.id),
    /** UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.day] })],
);

/** Every write, who made it and when. Never updated or deleted by the registry. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    /** The owner name that acted, or "(local)" for writes made with the data dir in hand (the CLI, the first start). */
    actor: text("actor").notNull(),
    tokenId: text("token_id"),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("audit_log_at_idx").on(t.at)],
);
