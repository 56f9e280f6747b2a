import type pg from "pg";
import { nameSkeleton, scopeOf } from "../../../package/names.js";
import { SizedLru } from "../../data/sized-lru.js";
import { displayVersion } from "../../documents/latest.js";
import { RegistryError, versionExists } from "../../errors.js";
import type {
  Actor,
  AdvisoryRecord,
  AuditRecord,
  BrowseFilter,
  BrowsePage,
  DownloadCount,
  ListingFacts,
  NewAdvisory,
  NewToken,
  NewVersion,
  OwnerChange,
  OwnerTarget,
  PackageChangeListener,
  PackageRecord,
  RegistryStore,
  RightsFacts,
  SearchHit,
  SearchPage,
  TarballRecord,
  TokenRecord,
  VersionRecord,
} from "../../store.js";
import { type YankColumns, yankAndDeprecation } from "../version-rows.js";
import { PackageChanges } from "./package-changes.js";
import { searchDocumentSql, searchTerms, searchText } from "./search-text.js";

type Db = pg.Pool | pg.PoolClient;

const tarballRowsKept = 200_000;

/** Held (shared) by every running process; taken exclusively by one that is alone, for the start-up sweep. */
const processesLockKey = 0x68796b70; // "hykp"
/** Held by a process while it starts, so that starts take turns (package-changes.ts). */
const startingLockKey = 0x68796b73; // "hyks"

const versionColumns = `
  v.id, v.package_id AS "packageId", p.name, v.version, v.prerelease, v.integrity, v.size,
  v.manifest, v.capabilities, v.effects, v.readme, v.published_at AS "publishedAt",
  publisher.name AS "publishedBy", v.signature, v.key_id AS "keyId",
  y.reason AS "yankReason", y.yanked_at AS "yankedAt", yanker.name AS "yankedBy",
  d.message AS deprecation, d.deprecated_at AS "deprecatedAt", deprecator.name AS "deprecatedBy"
FROM versions v
JOIN packages p ON p.id = v.package_id
JOIN owners publisher ON publisher.id = v.published_by
LEFT JOIN yanks y ON y.version_id = v.id
LEFT JOIN owners yanker ON yanker.id = y.owner_id
LEFT JOIN deprecations d ON d.version_id = v.id
LEFT JOIN owners deprecator ON deprecator.id = d.owner_id`;

const searchColumns = `s.name, s.description, s.keywords, s.version, p.downloads`;

/**
 * Relevance of a search row to the tsquery `q`. Weights {D, C, B, A}: a hit in the name (A) counts
 * most, then keywords (B), then the description (C), as bm25's weights (10, 5, 2) in the sqlite store.
 */
const rank = `ts_rank('{0, 0.2, 0.5, 1.0}', s.document, q)`;

/** Names compare byte-wise, as sqlite's do, whatever the database's collation. */
const byName = (column: string) => `${column} COLLATE "C"`;

/**
 * RegistryStore on PostgreSQL, for several registry processes on one database. Every write is one
 * transaction; writes that decide who may do what first take transaction-scoped advisory locks
 * on the name's skeleton and scope, so two processes publishing one name (or claiming one scope,
 * or two confusable names) are serialised and the second sees what the first committed. The
 * unique indexes are the last line: a duplicate version is REG_ERR_VERSION_EXISTS, never a row.
 * Package changes are announced with NOTIFY in the writing transaction (package-changes.ts).
 */
export class PgStore implements RegistryStore {
  readonly shared = true;
  private readonly tarballs = new SizedLru<string, TarballRecord>(tarballRowsKept, () => 1);
  private readonly changes: PackageChanges;

  constructor(
    private readonly pool: pg.Pool,
    url: string,
  ) {
    this.changes = new PackageChanges(url, processesLockKey, startingLockKey);
  }

  /** Starts listening for other processes' changes; resolves once listening. */
  async start(): Promise<void> {
    await this.changes.start();
  }

  private async transaction<T>(work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
    const tx = await this.pool.connect();
    try {
      await tx.query("BEGIN");
      const result = await work(tx);
      await tx.query("COMMIT");
      return result;
    } catch (error) {
      await tx.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      tx.release();
    }
  }

  private async one<R extends pg.QueryResultRow>(db: Db, text: string, values: unknown[] = []) {
    return (await db.query<R>(text, values)).rows[0];
  }

  async isEmpty(): Promise<boolean> {
    return (await this.one(this.pool, "SELECT 1 FROM tokens LIMIT 1")) === undefined;
  }

  async createToken(token: NewToken, actor: Actor): Promise<TokenRecord> {
    return this.transaction(async (tx) => {
      const ownerId = await this.ownerIdOrCreate(tx, token.owner, token.createdAt);
      await tx.query(
        `INSERT INTO tokens (id, owner_id, hash, scope, description, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [token.id, ownerId, token.hash, token.scope, token.description, token.createdAt, token.expiresAt],
      );
      await this.audit(tx, token.createdAt, actor, "token.create", token.id, {
        owner: token.owner,
        scope: token.scope,
        expiresAt: token.expiresAt,
      });
      const { hash: _, ...shown } = token;
      return { ...shown, revokedAt: null };
    });
  }

  private tokenQuery(where: string, order = "") {
    return `SELECT t.id, o.name AS owner, t.scope, t.description, t.created_at AS "createdAt",
      t.expires_at AS "expiresAt", t.revoked_at AS "revokedAt"
      FROM tokens t JOIN owners o ON o.id = t.owner_id ${where} ${order}`;
  }

  async findTokenByHash(hash: string): Promise<TokenRecord | undefined> {
    return this.one<TokenRecord>(this.pool, this.tokenQuery("WHERE t.hash = $1"), [hash]);
  }

  async getToken(id: string): Promise<TokenRecord | undefined> {
    return this.one<TokenRecord>(this.pool, this.tokenQuery("WHERE t.id = $1"), [id]);
  }

  async listTokens(owner?: string): Promise<TokenRecord[]> {
    const order = "ORDER BY t.created_at DESC, t.seq DESC";
    const result =
      owner === undefined
        ? await this.pool.query<TokenRecord>(this.tokenQuery("", order))
        : await this.pool.query<TokenRecord>(this.tokenQuery("WHERE o.name = $1", order), [owner]);
    return result.rows;
  }

  async revokeToken(id: string, at: string, actor: Actor): Promise<TokenRecord | undefined> {
    return this.transaction(async (tx) => {
      const changed = await tx.query(
        "UPDATE tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
        [id, at],
      );
      if ((changed.rowCount ?? 0) > 0) await this.audit(tx, at, actor, "token.revoke", id);
      return this.one<TokenRecord>(tx, this.tokenQuery("WHERE t.id = $1"), [id]);
    });
  }

  async ownerExists(name: string): Promise<boolean> {
    return (await this.ownerId(this.pool, name)) !== undefined;
  }

  async ensureOwner(name: string, at: string, actor: Actor): Promise<void> {
    await this.transaction(async (tx) => {
      const made = await tx.query(
        "INSERT INTO owners (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        [name, at],
      );
      if ((made.rowCount ?? 0) > 0) await this.audit(tx, at, actor, "owner.create", name);
    });
  }

  async findPackage(name: string): Promise<PackageRecord | undefined> {
    return this.one<PackageRecord>(
      this.pool,
      `SELECT id, name, created_at AS "createdAt", downloads FROM packages WHERE name = $1`,
      [name],
    );
  }

  async listVersions(packageId: number): Promise<VersionRecord[]> {
    const result = await this.pool.query<VersionRow>(
      `SELECT ${versionColumns} WHERE v.package_id = $1 ORDER BY v.id`,
      [packageId],
    );
    return result.rows.map(versionRecord);
  }

  async getVersion(name: string, version: string): Promise<VersionRecord | undefined> {
    const row = await this.versionRow(this.pool, name, version);
    return row ? versionRecord(row) : undefined;
  }

  private versionRow(db: Db, name: string, version: string) {
    return this.one<VersionRow>(db, `SELECT ${versionColumns} WHERE p.name = $1 AND v.version = $2`, [
      name,
      version,
    ]);
  }

  async findTarball(name: string, version: string): Promise<TarballRecord | undefined> {
    const key = `${name}\0${version}`;
    let found = this.tarballs.get(key);
    if (!found) {
      found = await this.one<TarballRecord>(
        this.pool,
        `SELECT v.id AS "versionId", v.integrity FROM versions v JOIN packages p ON p.id = v.package_id
         WHERE p.name = $1 AND v.version = $2`,
        [name, version],
      );
      if (found) this.tarballs.set(key, found);
    }
    return found;
  }

  onPackageChange(listener: PackageChangeListener): void {
    this.changes.listen(listener);
  }

  async rightsFacts(name: string): Promise<RightsFacts> {
    return this.readRightsFacts(this.pool, name);
  }

  async publishVersions(
    items: readonly NewVersion[],
    authorize: (facts: RightsFacts, item: NewVersion) => void,
  ): Promise<VersionRecord[]> {
    const records = await this.transaction(async (tx) => {
      await this.lockNames(
        tx,
        items.map((item) => item.name),
      );
      const done: VersionRecord[] = [];
      for (const item of items) done.push(await this.insertVersion(tx, item, authorize));
      await this.changes.notify(
        tx,
        done.map((record) => record.name),
      );
      return done;
    });
    this.changes.local(records.map((record) => record.name));
    return records;
  }

  /**
   * Serialises writers of these names against each other, until the commit: one lock per skeleton
   * (covers the name and every name confusable with it) and per scope, taken in one order so two
   * batches cannot deadlock.
   */
  private async lockNames(tx: pg.PoolClient, names: readonly string[]): Promise<void> {
    const keys = new Set<string>();
    for (const name of names) {
      keys.add(`skeleton:${nameSkeleton(name)}`);
      const scope = scopeOf(name);
      if (scope) keys.add(`scope:${scope}`);
    }
    await this.lockKeys(tx, keys);
  }

  private async lockKeys(tx: pg.PoolClient, keys: Iterable<string>): Promise<void> {
    for (const key of [...keys].sort()) {
      await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [key]);
    }
  }

  private async insertVersion(
    tx: pg.PoolClient,
    item: NewVersion,
    authorize: (facts: RightsFacts, item: NewVersion) => void,
  ): Promise<VersionRecord> {
    authorize(await this.readRightsFacts(tx, item.name), item);
    const ownerId = await this.ownerId(tx, item.publisher.owner);
    if (ownerId === undefined) {
      throw new RegistryError("REG_ERR_OWNER_NOT_FOUND", `there is no owner ${item.publisher.owner}`);
    }
    const found = await this.one<{ id: number }>(tx, "SELECT id FROM packages WHERE name = $1", [item.name]);
    const packageId = found?.id ?? (await this.createPackage(tx, item, ownerId));
    const inserted = await this.one<{ id: number }>(
      tx,
      `INSERT INTO versions (package_id, version, prerelease, integrity, size, manifest, capabilities,
         effects, readme, published_at, published_by, signature, key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (package_id, version) DO NOTHING RETURNING id`,
      [
        packageId,
        item.version,
        item.prerelease,
        item.integrity,
        item.size,
        JSON.stringify(item.manifest),
        JSON.stringify(item.capabilities),
        JSON.stringify(item.effects),
        item.readme,
        item.publishedAt,
        ownerId,
        item.signature,
        item.keyId,
      ],
    );
    if (!inserted) throw versionExists(item.name, item.version);
    await this.refreshSearchRow(tx, packageId);
    await this.audit(
      tx,
      item.publishedAt,
      item.publisher,
      "version.publish",
      `${item.name}@${item.version}`,
      {
        integrity: item.integrity,
        size: item.size,
      },
    );
    const { publisher, ...fields } = item;
    return { ...fields, id: inserted.id, publishedBy: publisher.owner, yanked: null, deprecated: null };
  }

  private async createPackage(tx: pg.PoolClient, item: NewVersion, ownerId: number): Promise<number> {
    const made = await this.one<{ id: number }>(
      tx,
      "INSERT INTO packages (name, skeleton, created_at) VALUES ($1, $2, $3) RETURNING id",
      [item.name, nameSkeleton(item.name), item.publishedAt],
    );
    const id = (made as { id: number }).id;
    await tx.query("INSERT INTO package_owners (package_id, owner_id, added_at) VALUES ($1, $2, $3)", [
      id,
      ownerId,
      item.publishedAt,
    ]);
    await this.audit(tx, item.publishedAt, item.publisher, "package.create", item.name);
    const scope = scopeOf(item.name);
    if (scope && (await this.scopeOwnerNames(tx, scope)).length === 0) {
      await tx.query("INSERT INTO scope_owners (scope, owner_id, added_at) VALUES ($1, $2, $3)", [
        scope,
        ownerId,
        item.publishedAt,
      ]);
      await this.audit(tx, item.publishedAt, item.publisher, "scope.claim", scope);
    }
    return id;
  }

  async setYank(
    name: string,
    version: string,
    reason: string | null,
    at: string,
    actor: Actor,
  ): Promise<VersionRecord> {
    return this.changeVersion(name, version, async (tx, found) => {
      const removed = (await tx.query("DELETE FROM yanks WHERE version_id = $1", [found.id])).rowCount ?? 0;
      if (reason !== null) {
        const ownerId = await this.requireOwner(tx, actor.owner);
        await tx.query(
          "INSERT INTO yanks (version_id, reason, yanked_at, owner_id) VALUES ($1, $2, $3, $4)",
          [found.id, reason, at, ownerId],
        );
        await this.audit(tx, at, actor, "version.yank", `${name}@${version}`, { reason });
      } else if (removed > 0) {
        await this.audit(tx, at, actor, "version.unyank", `${name}@${version}`);
      }
      await this.refreshSearchRow(tx, found.packageId);
    });
  }

  async setDeprecation(
    name: string,
    version: string,
    message: string | null,
    at: string,
    actor: Actor,
  ): Promise<VersionRecord> {
    return this.changeVersion(name, version, async (tx, found) => {
      const removed =
        (await tx.query("DELETE FROM deprecations WHERE version_id = $1", [found.id])).rowCount ?? 0;
      if (message !== null) {
        const ownerId = await this.requireOwner(tx, actor.owner);
        await tx.query(
          "INSERT INTO deprecations (version_id, message, deprecated_at, owner_id) VALUES ($1, $2, $3, $4)",
          [found.id, message, at, ownerId],
        );
        await this.audit(tx, at, actor, "version.deprecate", `${name}@${version}`, { message });
      } else if (removed > 0) {
        await this.audit(tx, at, actor, "version.undeprecate", `${name}@${version}`);
      }
    });
  }

  /** A write to one version's state, with the version row locked so two such writes take turns. */
  private async changeVersion(
    name: string,
    version: string,
    work: (tx: pg.PoolClient, found: { id: number; packageId: number }) => Promise<void>,
  ): Promise<VersionRecord> {
    const record = await this.transaction(async (tx) => {
      const found = await this.one<{ id: number; packageId: number }>(
        tx,
        `SELECT v.id, v.package_id AS "packageId" FROM versions v JOIN packages p ON p.id = v.package_id
         WHERE p.name = $1 AND v.version = $2 FOR UPDATE OF v`,
        [name, version],
      );
      if (!found) {
        throw (await this.one(tx, "SELECT 1 FROM packages WHERE name = $1", [name]))
          ? new RegistryError("REG_ERR_VERSION_NOT_FOUND", `${name} has no version ${version}`)
          : new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
      }
      await work(tx, found);
      await this.changes.notify(tx, [name]);
      return versionRecord(
        (await this.one<VersionRow>(tx, `SELECT ${versionColumns} WHERE v.id = $1`, [
          found.id,
        ])) as VersionRow,
      );
    });
    this.changes.local([record.name]);
    return record;
  }

  async packageOwners(name: string): Promise<string[] | undefined> {
    const found = await this.one<{ id: number }>(this.pool, "SELECT id FROM packages WHERE name = $1", [
      name,
    ]);
    return found ? this.packageOwnerNames(this.pool, found.id) : undefined;
  }

  async scopeOwners(scope: string): Promise<string[]> {
    return this.scopeOwnerNames(this.pool, scope);
  }

  async changeOwners(target: OwnerTarget, change: OwnerChange, at: string, actor: Actor): Promise<string[]> {
    return this.transaction(async (tx) => {
      await this.lockKeys(tx, ["package" in target ? `owners:${target.package}` : `scope:${target.scope}`]);
      const ids = new Map<string, number>();
      for (const name of [...change.add, ...change.remove]) {
        const id = await this.ownerId(tx, name);
        if (id === undefined) {
          throw new RegistryError(
            "REG_ERR_OWNER_NOT_FOUND",
            `there is no owner ${JSON.stringify(name)} (an owner exists once a token was made for it)`,
          );
        }
        ids.set(name, id);
      }
      const table = await this.ownerTable(tx, target, at);
      const next = new Set(table.current);
      for (const name of change.add) next.add(name);
      for (const name of change.remove) next.delete(name);
      if (next.size === 0) {
        throw new RegistryError(
          "REG_ERR_LAST_OWNER",
          `${table.subject} would have no owner left: add another owner before removing the last one`,
        );
      }
      for (const name of [...next].sort()) {
        if (table.current.includes(name)) continue;
        await table.add(ids.get(name) as number);
        await this.audit(tx, at, actor, `${table.kind}.owner.add`, table.subject, { owner: name });
      }
      for (const name of table.current) {
        if (next.has(name)) continue;
        await table.remove(ids.get(name) as number);
        await this.audit(tx, at, actor, `${table.kind}.owner.remove`, table.subject, { owner: name });
      }
      return [...next].sort();
    });
  }

  private async ownerTable(tx: pg.PoolClient, target: OwnerTarget, at: string) {
    if ("package" in target) {
      const found = await this.one<{ id: number }>(tx, "SELECT id FROM packages WHERE name = $1", [
        target.package,
      ]);
      if (!found)
        throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${target.package}`);
      const packageId = found.id;
      return {
        kind: "package",
        subject: target.package,
        current: await this.packageOwnerNames(tx, packageId),
        add: (ownerId: number) =>
          tx.query("INSERT INTO package_owners (package_id, owner_id, added_at) VALUES ($1, $2, $3)", [
            packageId,
            ownerId,
            at,
          ]),
        remove: (ownerId: number) =>
          tx.query("DELETE FROM package_owners WHERE package_id = $1 AND owner_id = $2", [
            packageId,
            ownerId,
          ]),
      };
    }
    const { scope } = target;
    return {
      kind: "scope",
      subject: scope,
      current: await this.scopeOwnerNames(tx, scope),
      add: (ownerId: number) =>
        tx.query("INSERT INTO scope_owners (scope, owner_id, added_at) VALUES ($1, $2, $3)", [
          scope,
          ownerId,
          at,
        ]),
      remove: (ownerId: number) =>
        tx.query("DELETE FROM scope_owners WHERE scope = $1 AND owner_id = $2", [scope, ownerId]),
    };
  }

  async search(match: string, limit: number, offset: number): Promise<SearchPage> {
    const from = "FROM package_search s JOIN packages p ON p.id = s.package_id";
    if (match === "") {
      const rows = await this.pool.query<SearchHit>(
        `SELECT ${searchColumns} ${from} ORDER BY p.downloads DESC, ${byName("s.name")} LIMIT $1 OFFSET $2`,
        [limit, offset],
      );
      const total = await this.one<{ n: number }>(this.pool, "SELECT count(*)::int AS n FROM package_search");
      return { total: total?.n ?? 0, results: rows.rows };
    }
    const query = tsQuery(match);
    if (query === undefined) return { total: 0, results: [] };
    const rows = await this.pool.query<SearchHit>(
      `SELECT ${searchColumns} ${from}, to_tsquery('simple', $1) q
       WHERE s.document @@ q
       ORDER BY ${rank} DESC, p.downloads DESC, ${byName("s.name")}
       LIMIT $2 OFFSET $3`,
      [query, limit, offset],
    );
    const total = await this.one<{ n: number }>(
      this.pool,
      "SELECT count(*)::int AS n FROM package_search WHERE document @@ to_tsquery('simple', $1)",
      [query],
    );
    return { total: total?.n ?? 0, results: rows.rows };
  }

  async browse(filter: BrowseFilter, limit: number | undefined, offset: number): Promise<BrowsePage> {
    const query = filter.match === "" ? null : tsQuery(filter.match);
    if (query === undefined) return { total: 0, results: [] };
    // Filters are optional parameters and the order a CASE, as in the sqlite store's statement.
    const view = `SELECT s.name, s.description, s.keywords, s.version, p.downloads, v.capabilities,
         v.effects, (SELECT max(w.published_at) FROM versions w WHERE w.package_id = p.id) AS "lastPublishedAt",
         ${query === null ? "0" : rank} AS rank
       FROM package_search s
       JOIN packages p ON p.id = s.package_id
       JOIN versions v ON v.package_id = p.id AND v.version = s.version
       CROSS JOIN to_tsquery('simple', coalesce($1::text, '')) q
       WHERE ($1::text IS NULL OR s.document @@ q)
         AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM package_owners po JOIN owners o ON o.id = po.owner_id
              WHERE po.package_id = p.id AND o.name = $2))
         AND ($3::text IS NULL OR s.keywords ? $3)
         AND ($4::text IS NULL OR coalesce(v.manifest->'hookyard'->'events', '[]'::jsonb) ? $4)`;
    const rows = await this.pool.query<BrowseRow>(
      `SELECT name, description, keywords, version, downloads, capabilities, effects, "lastPublishedAt",
         count(*) OVER ()::int AS total
       FROM (${view}) hits
       ORDER BY
         CASE WHEN $5 = 'relevance' THEN rank END DESC,
         CASE WHEN $5 IN ('relevance', 'downloads') THEN downloads END DESC,
         CASE WHEN $5 = 'updated' THEN "lastPublishedAt" END DESC,
         ${byName("name")}
       LIMIT $6 OFFSET $7`,
      [
        query,
        filter.owner ?? null,
        filter.keyword ?? null,
        filter.point ?? null,
        filter.sort,
        limit ?? null,
        offset,
      ],
    );
    let total = rows.rows[0]?.total;
    if (total === undefined) {
      // Past the last row the window has nothing to count.
      const counted = await this.one<{ n: number }>(
        this.pool,
        `SELECT count(*)::int AS n FROM (${view}) hits`,
        [query, filter.owner ?? null, filter.keyword ?? null, filter.point ?? null],
      );
      total = counted?.n ?? 0;
    }
    return {
      total,
      results: rows.rows.map((row) => ({
        hit: {
          name: row.name,
          description: row.description,
          keywords: row.keywords,
          version: row.version,
          downloads: row.downloads,
        },
        facts: { lastPublishedAt: row.lastPublishedAt, capabilities: row.capabilities, effects: row.effects },
      })),
    };
  }

  async recentlyPublished(limit: number): Promise<SearchHit[]> {
    const rows = await this.pool.query<SearchHit>(
      `SELECT ${searchColumns}
       FROM (SELECT package_id, max(published_at) AS at FROM versions GROUP BY package_id) r
       JOIN package_search s ON s.package_id = r.package_id
       JOIN packages p ON p.id = r.package_id
       ORDER BY r.at DESC, ${byName("s.name")} LIMIT $1`,
      [limit],
    );
    return rows.rows;
  }

  async listingFacts(names: readonly string[]): Promise<Map<string, ListingFacts>> {
    if (names.length === 0) return new Map();
    const rows = await this.pool.query<ListingFacts & { name: string }>(
      `SELECT p.name, v.capabilities, v.effects,
         (SELECT max(w.published_at) FROM versions w WHERE w.package_id = p.id) AS "lastPublishedAt"
       FROM packages p
       JOIN package_search s ON s.package_id = p.id
       JOIN versions v ON v.package_id = p.id AND v.version = s.version
       WHERE p.name = ANY($1::text[])`,
      [names],
    );
    return new Map(rows.rows.map(({ name, ...facts }) => [name, facts]));
  }

  async addDownloads(counts: readonly DownloadCount[]): Promise<void> {
    if (counts.length === 0) return;
    // Additive upserts: what several processes count adds up, in whatever order they write it.
    await this.transaction(async (tx) => {
      for (const { versionId, day, count } of [...counts].sort((a, b) => a.versionId - b.versionId)) {
        await tx.query(
          `INSERT INTO download_counts (version_id, day, count) VALUES ($1, $2, $3)
           ON CONFLICT (version_id, day) DO UPDATE SET count = download_counts.count + excluded.count`,
          [versionId, day, count],
        );
        await tx.query(
          "UPDATE packages SET downloads = downloads + $1 WHERE id = (SELECT package_id FROM versions WHERE id = $2)",
          [count, versionId],
        );
      }
    });
  }

  async createAdvisory(advisory: NewAdvisory, actor: Actor): Promise<AdvisoryRecord> {
    return this.transaction(async (tx) => {
      const createdBy = await this.requireOwner(tx, actor.owner);
      const made = await this.one<{ id: number }>(
        tx,
        `INSERT INTO advisories (package_name, range, severity, text, created_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [
          advisory.packageName,
          advisory.range,
          advisory.severity,
          advisory.text,
          advisory.createdAt,
          createdBy,
        ],
      );
      const id = (made as { id: number }).id;
      await this.audit(tx, advisory.createdAt, actor, "advisory.create", advisory.packageName, {
        id,
        range: advisory.range,
        severity: advisory.severity,
      });
      return { ...advisory, id, createdBy: actor.owner };
    });
  }

  async advisoriesFor(names: readonly string[]): Promise<AdvisoryRecord[]> {
    if (names.length === 0) return [];
    const rows = await this.pool.query<AdvisoryRecord>(
      `SELECT a.id, a.package_name AS "packageName", a.range, a.severity, a.text,
         a.created_at AS "createdAt", o.name AS "createdBy"
       FROM advisories a JOIN owners o ON o.id = a.created_by
       WHERE a.package_name = ANY($1::text[]) ORDER BY a.id`,
      [names],
    );
    return rows.rows;
  }

  async listAudit(limit: number, offset: number): Promise<AuditRecord[]> {
    const rows = await this.pool.query<AuditRecord>(
      `SELECT id, at, actor, token_id AS "tokenId", action, subject, details
       FROM audit_log ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return rows.rows;
  }

  async storedIntegrities(): Promise<Set<string>> {
    const rows = await this.pool.query<{ integrity: string }>("SELECT DISTINCT integrity FROM versions");
    return new Set(rows.rows.map((row) => row.integrity));
  }

  async hasIntegrity(integrity: string): Promise<boolean> {
    return (
      (await this.one(this.pool, "SELECT 1 FROM versions WHERE integrity = $1 LIMIT 1", [integrity])) !==
      undefined
    );
  }

  async whileAlone<T>(work: () => Promise<T>): Promise<T | undefined> {
    return this.changes.whileAlone(work);
  }

  async sharedSetting(key: string, create: () => string, at: string): Promise<string> {
    // The first process to start writes it; every other one (and every later start) reads that.
    await this.pool.query(
      "INSERT INTO registry_settings (key, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING",
      [key, create(), at],
    );
    const row = await this.one<{ value: string }>(
      this.pool,
      "SELECT value FROM registry_settings WHERE key = $1",
      [key],
    );
    return (row as { value: string }).value;
  }

  async close(): Promise<void> {
    await this.changes.close();
    await this.pool.end().catch(() => {});
  }

  private async readRightsFacts(db: Db, name: string): Promise<RightsFacts> {
    const found = await this.one<{ id: number }>(db, "SELECT id FROM packages WHERE name = $1", [name]);
    const scope = scopeOf(name);
    const confusable: RightsFacts["confusable"] = [];
    if (!found) {
      const others = await db.query<{ id: number; name: string }>(
        "SELECT id, name FROM packages WHERE skeleton = $1",
        [nameSkeleton(name)],
      );
      for (const other of others.rows)
        confusable.push({ name: other.name, owners: await this.packageOwnerNames(db, other.id) });
    }
    return {
      name,
      packageOwners: found ? await this.packageOwnerNames(db, found.id) : undefined,
      scopeOwners: scope ? await this.scopeOwnerNames(db, scope) : [],
      confusable,
    };
  }

  private async packageOwnerNames(db: Db, packageId: number): Promise<string[]> {
    const rows = await db.query<{ name: string }>(
      `SELECT o.name FROM package_owners po JOIN owners o ON o.id = po.owner_id
       WHERE po.package_id = $1 ORDER BY ${byName("o.name")}`,
      [packageId],
    );
    return rows.rows.map((row) => row.name);
  }

  private async scopeOwnerNames(db: Db, scope: string): Promise<string[]> {
    const rows = await db.query<{ name: string }>(
      `SELECT o.name FROM scope_owners so JOIN owners o ON o.id = so.owner_id
       WHERE so.scope = $1 ORDER BY ${byName("o.name")}`,
      [scope],
    );
    return rows.rows.map((row) => row.name);
  }

  private async ownerId(db: Db, name: string): Promise<number | undefined> {
    return (await this.one<{ id: number }>(db, "SELECT id FROM owners WHERE name = $1", [name]))?.id;
  }

  private async ownerIdOrCreate(tx: pg.PoolClient, name: string, at: string): Promise<number> {
    await tx.query("INSERT INTO owners (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [
      name,
      at,
    ]);
    return (await this.ownerId(tx, name)) as number;
  }

  private async requireOwner(tx: pg.PoolClient, name: string): Promise<number> {
    const id = await this.ownerId(tx, name);
    if (id === undefined) throw new RegistryError("REG_ERR_OWNER_NOT_FOUND", `there is no owner ${name}`);
    return id;
  }

  /** Search shows a package by its latest version's description and keywords. */
  private async refreshSearchRow(tx: pg.PoolClient, packageId: number): Promise<void> {
    const states = await tx.query<{
      id: number;
      version: string;
      prerelease: boolean;
      yanked: number | null;
    }>(
      `SELECT v.id, v.version, v.prerelease, y.version_id AS yanked
       FROM versions v LEFT JOIN yanks y ON y.version_id = v.id WHERE v.package_id = $1`,
      [packageId],
    );
    const shown = displayVersion(states.rows);
    const row = states.rows.find((state) => state.version === shown);
    if (!row) return;
    const found = await this.one<{ manifest: { name: string; description?: string; keywords?: string[] } }>(
      tx,
      "SELECT manifest FROM versions WHERE id = $1",
      [row.id],
    );
    if (!found) return;
    const { name, description = "", keywords = [] } = found.manifest;
    await tx.query(
      `INSERT INTO package_search (package_id, name, description, keywords, version, document)
       VALUES ($1, $2, $3, $4, $5, ${searchDocumentSql("$6", "$7", "$8")})
       ON CONFLICT (package_id) DO UPDATE SET name = excluded.name, description = excluded.description,
         keywords = excluded.keywords, version = excluded.version, document = excluded.document`,
      [
        packageId,
        name,
        description,
        JSON.stringify(keywords),
        row.version,
        searchText(name),
        searchText(description),
        searchText(keywords.join(" ")),
      ],
    );
  }

  private async audit(
    tx: pg.PoolClient,
    at: string,
    actor: Actor,
    action: string,
    subject: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    await tx.query(
      "INSERT INTO audit_log (at, actor, token_id, action, subject, details) VALUES ($1, $2, $3, $4, $5, $6)",
      [
        at,
        actor.owner,
        actor.tokenId ?? null,
        action,
        subject,
        details === undefined ? null : JSON.stringify(details),
      ],
    );
  }
}

/**
 * An FTS5 expression made by ../search-query.ts as a tsquery: every term a prefix, all of them
 * needed; undefined when it has no word to look for.
 */
function tsQuery(match: string): string | undefined {
  const terms = searchTerms(match);
  return terms.length === 0 ? undefined : terms.map((term) => `${term}:*`).join(" & ");
}

interface BrowseRow extends SearchHit, ListingFacts {
  total: number;
}

/** A version row as node-postgres returns it: jsonb parsed, booleans as booleans, so a record but for its yank and deprecation. */
type VersionRow = Omit<VersionRecord, "yanked" | "deprecated"> & YankColumns & { packageId: number };

function versionRecord(row: VersionRow): VersionRecord {
  const { packageId, yankReason, yankedAt, yankedBy, deprecation, deprecatedAt, deprecatedBy, ...published } =
    row;
  return { ...published, ...yankAndDeprecation(row) };
}
