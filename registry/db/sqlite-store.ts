import { nameSkeleton, scopeOf } from "../../package/names.js";
import { SizedLru } from "../data/sized-lru.js";
import { displayVersion } from "../documents/latest.js";
import { RegistryError, versionExists } from "../errors.js";
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
} from "../store.js";
import type { RegistryDatabase } from "./open.js";
import type { tokens } from "./schema.js";
import { prepareStatements, type Statements } from "./statements.js";
import { versionRecord } from "./version-rows.js";

/** About 100 bytes each: every version of a large registry fits in a few tens of MB. */
const tarballRowsKept = 200_000;

/**
 * RegistryStore over one better-sqlite3 connection: the only module that talks to the database.
 * better-sqlite3 is synchronous, so each method runs to completion without interleaving with
 * other requests; writes that touch several rows run in one IMMEDIATE transaction, which also
 * serialises them against another process on the same file (`hookyard registry token create`).
 */
export class SqliteStore implements RegistryStore {
  /** One process: serve refuses a second one on the same file (data/serve-lock.ts). */
  readonly shared = false;
  private readonly q: Statements;
  private readonly packageListeners: PackageChangeListener[] = [];
  /**
   * Found tarball rows by `name\0version`. Version rows are never changed or deleted, so a found
   * row stays true; misses are not kept (the version may be published next).
   */
  private readonly tarballs = new SizedLru<string, TarballRecord>(tarballRowsKept, () => 1);

  constructor(private readonly db: RegistryDatabase) {
    this.q = prepareStatements(db);
  }

  private transaction<T>(work: () => T): T {
    return this.db.$client.transaction(work).immediate();
  }

  async isEmpty(): Promise<boolean> {
    return this.q.anyToken.get() === undefined;
  }

  async createToken(token: NewToken, actor: Actor): Promise<TokenRecord> {
    return this.transaction(() => {
      const ownerId = this.ownerIdOrCreate(token.owner, token.createdAt);
      this.q.insertToken.run({
        id: token.id,
        ownerId,
        hash: token.hash,
        scope: token.scope,
        description: token.description,
        createdAt: token.createdAt,
        expiresAt: token.expiresAt,
      });
      this.audit(token.createdAt, actor, "token.create", token.id, {
        owner: token.owner,
        scope: token.scope,
        expiresAt: token.expiresAt,
      });
      const { hash: _, ...shown } = token;
      return { ...shown, revokedAt: null };
    });
  }

  async findTokenByHash(hash: string): Promise<TokenRecord | undefined> {
    const row = this.q.tokenByHash.get({ hash });
    return row ? tokenRecord(row.token, row.owner) : undefined;
  }

  async getToken(id: string): Promise<TokenRecord | undefined> {
    return this.tokenWithId(id);
  }

  async listTokens(owner?: string): Promise<TokenRecord[]> {
    const rows = owner === undefined ? this.q.allTokens.all() : this.q.tokensOfOwner.all({ owner });
    return rows.map((row) => tokenRecord(row.token, row.owner));
  }

  async revokeToken(id: string, at: string, actor: Actor): Promise<TokenRecord | undefined> {
    return this.transaction(() => {
      const changed = this.q.revokeToken.run({ id, at });
      if (changed.changes > 0) this.audit(at, actor, "token.revoke", id);
      return this.tokenWithId(id);
    });
  }

  async ownerExists(name: string): Promise<boolean> {
    return this.ownerId(name) !== undefined;
  }

  async ensureOwner(name: string, at: string, actor: Actor): Promise<void> {
    this.transaction(() => {
      if (this.ownerId(name) !== undefined) return;
      this.ownerIdOrCreate(name, at);
      this.audit(at, actor, "owner.create", name);
    });
  }

  async findPackage(name: string): Promise<PackageRecord | undefined> {
    return this.q.packageByName.get({ name });
  }

  async listVersions(packageId: number): Promise<VersionRecord[]> {
    return this.q.versionsOfPackage.all(packageId).map(versionRecord);
  }

  async getVersion(name: string, version: string): Promise<VersionRecord | undefined> {
    const row = this.q.versionByName.get(name, version);
    return row ? versionRecord(row) : undefined;
  }

  async findTarball(name: string, version: string): Promise<TarballRecord | undefined> {
    const key = `${name}\0${version}`;
    let found = this.tarballs.get(key);
    if (!found) {
      found = this.q.tarballOf.get(name, version);
      if (found) this.tarballs.set(key, found);
    }
    return found;
  }

  onPackageChange(listener: PackageChangeListener): void {
    this.packageListeners.push(listener);
  }

  /** Tells the listeners, after the commit: a copy made from the old rows must not outlive it. */
  private changed(names: Iterable<string>): void {
    for (const name of new Set(names)) for (const listener of this.packageListeners) listener(name);
  }

  async rightsFacts(name: string): Promise<RightsFacts> {
    return this.readRightsFacts(name);
  }

  async publishVersions(
    items: readonly NewVersion[],
    authorize: (facts: RightsFacts, item: NewVersion) => void,
  ): Promise<VersionRecord[]> {
    const records = this.transaction(() => items.map((item) => this.insertVersion(item, authorize)));
    this.changed(records.map((record) => record.name));
    return records;
  }

  private insertVersion(item: NewVersion, authorize: (facts: RightsFacts, item: NewVersion) => void) {
    authorize(this.readRightsFacts(item.name), item);
    const ownerId = this.ownerId(item.publisher.owner);
    if (ownerId === undefined) {
      throw new RegistryError("REG_ERR_OWNER_NOT_FOUND", `there is no owner ${item.publisher.owner}`);
    }
    const packageId = this.q.packageByName.get({ name: item.name })?.id ?? this.createPackage(item, ownerId);
    if (this.q.versionIdOf.get({ packageId, version: item.version }))
      throw versionExists(item.name, item.version);
    const { id } = this.q.insertVersion.get({
      packageId,
      version: item.version,
      prerelease: item.prerelease,
      integrity: item.integrity,
      size: item.size,
      manifest: item.manifest,
      capabilities: item.capabilities,
      effects: item.effects,
      readme: item.readme,
      publishedAt: item.publishedAt,
      publishedBy: ownerId,
      signature: item.signature,
      keyId: item.keyId,
    }) as { id: number };
    this.refreshSearchRow(packageId);
    this.audit(item.publishedAt, item.publisher, "version.publish", `${item.name}@${item.version}`, {
      integrity: item.integrity,
      size: item.size,
    });
    const { publisher, ...fields } = item;
    return { ...fields, id, publishedBy: publisher.owner, yanked: null, deprecated: null };
  }

  private createPackage(item: NewVersion, ownerId: number): number {
    const { id } = this.q.insertPackage.get({
      name: item.name,
      skeleton: nameSkeleton(item.name),
      createdAt: item.publishedAt,
    }) as { id: number };
    this.q.insertPackageOwner.run({ packageId: id, ownerId, addedAt: item.publishedAt });
    this.audit(item.publishedAt, item.publisher, "package.create", item.name);
    const scope = scopeOf(item.name);
    if (scope && this.scopeOwnerNames(scope).length === 0) {
      this.q.insertScopeOwner.run({ scope, ownerId, addedAt: item.publishedAt });
      this.audit(item.publishedAt, item.publisher, "scope.claim", scope);
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
    const record = this.transaction(() => {
      const found = this.requireVersion(name, version);
      const removed = this.q.deleteYank.run({ versionId: found.id }).changes;
      if (reason !== null) {
        const ownerId = this.requireOwner(actor.owner);
        this.q.insertYank.run({ versionId: found.id, reason, at, ownerId });
        this.audit(at, actor, "version.yank", `${name}@${version}`, { reason });
      } else if (removed > 0) {
        this.audit(at, actor, "version.unyank", `${name}@${version}`);
      }
      this.refreshSearchRow(found.packageId);
      return this.versionById(found.id);
    });
    this.changed([record.name]);
    return record;
  }

  async setDeprecation(
    name: string,
    version: string,
    message: string | null,
    at: string,
    actor: Actor,
  ): Promise<VersionRecord> {
    const record = this.transaction(() => {
      const found = this.requireVersion(name, version);
      const removed = this.q.deleteDeprecation.run({ versionId: found.id }).changes;
      if (message !== null) {
        const ownerId = this.requireOwner(actor.owner);
        this.q.insertDeprecation.run({ versionId: found.id, message, at, ownerId });
        this.audit(at, actor, "version.deprecate", `${name}@${version}`, { message });
      } else if (removed > 0) {
        this.audit(at, actor, "version.undeprecate", `${name}@${version}`);
      }
      return this.versionById(found.id);
    });
    this.changed([record.name]);
    return record;
  }

  async packageOwners(name: string): Promise<string[] | undefined> {
    const found = this.q.packageByName.get({ name });
    return found ? this.packageOwnerNames(found.id) : undefined;
  }

  async scopeOwners(scope: string): Promise<string[]> {
    return this.scopeOwnerNames(scope);
  }

  async changeOwners(target: OwnerTarget, change: OwnerChange, at: string, actor: Actor): Promise<string[]> {
    return this.transaction(() => {
      const ids = new Map<string, number>();
      for (const name of [...change.add, ...change.remove]) {
        const id = this.ownerId(name);
        if (id === undefined) {
          throw new RegistryError(
            "REG_ERR_OWNER_NOT_FOUND",
            `there is no owner ${JSON.stringify(name)} (an owner exists once a token was made for it)`,
          );
        }
        ids.set(name, id);
      }
      const table = this.ownerTable(target, at);
      const next = new Set(table.current);
      for (const name of change.add) next.add(name);
      for (const name of change.remove) next.delete(name);
      if (next.size === 0) {
        throw new RegistryError(
          "REG_ERR_LAST_OWNER",
          `${table.subject} would have no owner left: add another owner before removing the last one`,
        );
      }
      for (const name of next) {
        if (table.current.includes(name)) continue;
        table.add(ids.get(name) as number);
        this.audit(at, actor, `${table.kind}.owner.add`, table.subject, { owner: name });
      }
      for (const name of table.current) {
        if (next.has(name)) continue;
        table.remove(ids.get(name) as number);
        this.audit(at, actor, `${table.kind}.owner.remove`, table.subject, { owner: name });
      }
      return [...next].sort();
    });
  }

  /** The owners of a package or a scope, and how to add and remove one. */
  private ownerTable(target: OwnerTarget, at: string) {
    if ("package" in target) {
      const found = this.q.packageByName.get({ name: target.package });
      if (!found)
        throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${target.package}`);
      const packageId = found.id;
      return {
        kind: "package",
        subject: target.package,
        current: this.packageOwnerNames(packageId),
        add: (ownerId: number) => this.q.insertPackageOwner.run({ packageId, ownerId, addedAt: at }),
        remove: (ownerId: number) => this.q.deletePackageOwner.run({ packageId, ownerId }),
      };
    }
    const { scope } = target;
    return {
      kind: "scope",
      subject: scope,
      current: this.scopeOwnerNames(scope),
      add: (ownerId: number) => this.q.insertScopeOwner.run({ scope, ownerId, addedAt: at }),
      remove: (ownerId: number) => this.q.deleteScopeOwner.run({ scope, ownerId }),
    };
  }

  async search(match: string, limit: number, offset: number): Promise<SearchPage> {
    const rows =
      match === ""
        ? this.q.everyPackage.all(limit, offset)
        : this.q.matchingPackages.all(match, limit, offset);
    const total = match === "" ? this.q.countEveryPackage.get() : this.q.countMatchingPackages.get(match);
    return {
      total: total?.n ?? 0,
      results: rows.map((row) => ({ ...row, keywords: JSON.parse(row.keywords) as string[] })),
    };
  }

  async browse(filter: BrowseFilter, limit: number | undefined, offset: number): Promise<BrowsePage> {
    const statement = filter.match === "" ? this.q.browseEvery : this.q.browseMatching;
    const params = {
      ...(filter.match === "" ? {} : { match: filter.match }),
      sort: filter.sort,
      owner: filter.owner ?? null,
      keyword: filter.keyword ?? null,
      point: filter.point ?? null,
    };
    const rows = statement.all({ ...params, limit: limit ?? -1, offset });
    // Past the last row the window has nothing to count: ask for the first one.
    const total = rows[0]?.total ?? statement.get({ ...params, limit: 1, offset: 0 })?.total ?? 0;
    return {
      total,
      results: rows.map((row) => ({
        hit: {
          name: row.name,
          description: row.description,
          keywords: JSON.parse(row.keywords) as string[],
          version: row.version,
          downloads: row.downloads,
        },
        facts: {
          lastPublishedAt: row.lastPublishedAt,
          capabilities: JSON.parse(row.capabilities) as string[],
          effects: JSON.parse(row.effects) as string[],
        },
      })),
    };
  }

  async recentlyPublished(limit: number): Promise<SearchHit[]> {
    // Each package's newest publish, newest first, until `limit` packages and every package tied
    // with the last of them (ties go by name, as in search).
    const newest = new Map<number, string>();
    let last: string | undefined;
    for (const { packageId, publishedAt } of this.q.publishesNewestFirst.iterate()) {
      if (newest.size >= limit && publishedAt !== last) break;
      if (!newest.has(packageId)) newest.set(packageId, publishedAt);
      if (newest.size >= limit) last ??= publishedAt;
    }
    const rows = this.q.searchRowsOfIds.all(JSON.stringify([...newest.keys()]));
    const at = (row: { id: number }) => newest.get(row.id) ?? "";
    // Plain string order, as SQLite's: ISO times sort by time.
    rows.sort((a, b) => (at(a) !== at(b) ? (at(a) < at(b) ? 1 : -1) : a.name < b.name ? -1 : 1));
    return rows
      .slice(0, limit)
      .map(({ id: _id, ...row }) => ({ ...row, keywords: JSON.parse(row.keywords) as string[] }));
  }

  async listingFacts(names: readonly string[]): Promise<Map<string, ListingFacts>> {
    if (names.length === 0) return new Map();
    const rows = this.q.listingFacts.all(JSON.stringify(names));
    return new Map(
      rows.map((row) => [
        row.name,
        {
          lastPublishedAt: row.lastPublishedAt,
          capabilities: JSON.parse(row.capabilities) as string[],
          effects: JSON.parse(row.effects) as string[],
        },
      ]),
    );
  }

  async addDownloads(counts: readonly DownloadCount[]): Promise<void> {
    if (counts.length === 0) return;
    this.transaction(() => {
      for (const { versionId, day, count } of counts) {
        this.q.addVersionDownloads.run(versionId, day, count);
        this.q.addPackageDownloads.run(count, versionId);
      }
    });
  }

  async createAdvisory(advisory: NewAdvisory, actor: Actor): Promise<AdvisoryRecord> {
    return this.transaction(() => {
      const createdBy = this.requireOwner(actor.owner);
      const { id } = this.q.insertAdvisory.get({ ...advisory, createdBy }) as { id: number };
      this.audit(advisory.createdAt, actor, "advisory.create", advisory.packageName, {
        id,
        range: advisory.range,
        severity: advisory.severity,
      });
      return { ...advisory, id, createdBy: actor.owner };
    });
  }

  async advisoriesFor(names: readonly string[]): Promise<AdvisoryRecord[]> {
    if (names.length === 0) return [];
    const rows = this.q.advisoriesOfNames.all({ names: JSON.stringify(names) });
    return rows.map(({ advisory, createdBy }) => ({ ...advisory, createdBy }));
  }

  async listAudit(limit: number, offset: number): Promise<AuditRecord[]> {
    return this.q.auditPage.all({ limit, offset });
  }

  async storedIntegrities(): Promise<Set<string>> {
    return new Set(this.q.storedIntegrities.all().map((row) => row.integrity));
  }

  async hasIntegrity(integrity: string): Promise<boolean> {
    return this.q.versionWithIntegrity.get({ integrity }) !== undefined;
  }

  /** One process per data dir (the serve lock, data/serve-lock.ts): always alone. */
  async whileAlone<T>(work: () => Promise<T>): Promise<T | undefined> {
    return work();
  }

  async sharedSetting(): Promise<string | undefined> {
    return undefined;
  }

  async close(): Promise<void> {
    if (this.db.$client.open) this.db.$client.close();
  }

  private readRightsFacts(name: string): RightsFacts {
    const found = this.q.packageByName.get({ name });
    const scope = scopeOf(name);
    const confusable = found
      ? []
      : this.q.packagesWithSkeleton
          .all({ skeleton: nameSkeleton(name) })
          .map((other) => ({ name: other.name, owners: this.packageOwnerNames(other.id) }));
    return {
      name,
      packageOwners: found ? this.packageOwnerNames(found.id) : undefined,
      scopeOwners: scope ? this.scopeOwnerNames(scope) : [],
      confusable,
    };
  }

  private tokenWithId(id: string): TokenRecord | undefined {
    const row = this.q.tokenById.get({ id });
    return row ? tokenRecord(row.token, row.owner) : undefined;
  }

  private packageOwnerNames(packageId: number): string[] {
    return this.q.ownersOfPackage.all({ packageId }).map((row) => row.name);
  }

  private scopeOwnerNames(scope: string): string[] {
    return this.q.ownersOfScope.all({ scope }).map((row) => row.name);
  }

  private ownerId(name: string): number | undefined {
    return this.q.ownerIdByName.get({ name })?.id;
  }

  private ownerIdOrCreate(name: string, at: string): number {
    const existing = this.ownerId(name);
    if (existing !== undefined) return existing;
    return (this.q.insertOwner.get({ name, createdAt: at }) as { id: number }).id;
  }

  private requireOwner(name: string): number {
    const id = this.ownerId(name);
    if (id === undefined) throw new RegistryError("REG_ERR_OWNER_NOT_FOUND", `there is no owner ${name}`);
    return id;
  }

  private requireVersion(name: string, version: string): { id: number; packageId: number } {
    const row = this.q.versionByName.get(name, version);
    if (!row) {
      throw this.q.packageByName.get({ name })
        ? new RegistryError("REG_ERR_VERSION_NOT_FOUND", `${name} has no version ${version}`)
        : new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
    }
    return { id: row.id, packageId: row.packageId };
  }

  private versionById(id: number): VersionRecord {
    const row = this.q.versionWithId.get(id);
    if (!row) throw new Error(`version row ${id} vanished inside its own transaction`);
    return versionRecord(row);
  }

  /** Search shows a package by its latest version's description and keywords. */
  private refreshSearchRow(packageId: number): void {
    const states = this.q.versionStates.all({ packageId });
    const shown = displayVersion(states);
    const row = states.find((state) => state.version === shown);
    if (!row) return;
    const manifest = this.q.manifestOf.get({ id: row.id })?.manifest as
      | { name: string; description?: string; keywords?: string[] }
      | undefined;
    if (!manifest) return;
    this.q.deleteSearchRow.run(packageId);
    this.q.insertSearchRow.run(
      packageId,
      manifest.name,
      manifest.description ?? "",
      JSON.stringify(manifest.keywords ?? []),
      row.version,
    );
  }

  private audit(
    at: string,
    actor: Actor,
    action: string,
    subject: string,
    details?: Record<string, unknown>,
  ) {
    this.q.insertAudit.run({
      at,
      actor: actor.owner,
      tokenId: actor.tokenId ?? null,
      action,
      subject,
      details: details ?? null,
    });
  }
}

function tokenRecord(token: typeof tokens.$inferSelect, owner: string): TokenRecord {
  const { id, scope, description, createdAt, expiresAt, revokedAt } = token;
  return { id, owner, scope, description, createdAt, expiresAt, revokedAt };
}
