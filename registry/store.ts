import type { AdvisorySeverity, TokenScope } from "./db/schema.js";

/**
 * The registry's metadata storage. The embedded implementation is sqlite (registry/db/sqlite-store.ts);
 * every method is async and atomic on its own so that a PostgreSQL implementation can follow
 * (DESIGN §9). Rules about who may do what are not in here: the caller passes them in.
 */
export interface RegistryStore {
  /** True before the first token was ever made: the first start creates the admin token. */
  isEmpty(): Promise<boolean>;

  /** Creates the owner if it does not exist yet. */
  createToken(token: NewToken, actor: Actor): Promise<TokenRecord>;
  findTokenByHash(hash: string): Promise<TokenRecord | undefined>;
  getToken(id: string): Promise<TokenRecord | undefined>;
  /** Every token, or those of one owner, newest first. */
  listTokens(owner?: string): Promise<TokenRecord[]>;
  revokeToken(id: string, at: string, actor: Actor): Promise<TokenRecord | undefined>;
  ownerExists(name: string): Promise<boolean>;
  /** Creates the owner unless it exists. */
  ensureOwner(name: string, at: string, actor: Actor): Promise<void>;

  findPackage(name: string): Promise<PackageRecord | undefined>;
  /** All versions of a package, in publish order. */
  listVersions(packageId: number): Promise<VersionRecord[]>;
  getVersion(name: string, version: string): Promise<VersionRecord | undefined>;
  /** Where a version's tarball is: what a download needs and nothing else. */
  findTarball(name: string, version: string): Promise<TarballRecord | undefined>;
  /** Who may act on `name`, read in one snapshot. */
  rightsFacts(name: string): Promise<RightsFacts>;
  /**
   * Inserts versions in one transaction, creating packages (owned by the publisher, claiming an
   * unowned scope) as needed. `authorize` runs inside the transaction with the facts as they are
   * at commit, so two racing publishers cannot both win; it throws to refuse. A version that
   * exists already fails the whole batch with REG_ERR_VERSION_EXISTS.
   */
  publishVersions(
    items: readonly NewVersion[],
    authorize: (facts: RightsFacts, item: NewVersion) => void,
  ): Promise<VersionRecord[]>;
  setYank(
    name: string,
    version: string,
    reason: string | null,
    at: string,
    actor: Actor,
  ): Promise<VersionRecord>;
  setDeprecation(
    name: string,
    version: string,
    message: string | null,
    at: string,
    actor: Actor,
  ): Promise<VersionRecord>;

  /**
   * Calls `listener` with a package's name after every committed write that changes what
   * GET /v1/packages/:name shows (a publish, a yank or unyank, a deprecation or its undoing), so
   * that copies of the document can be dropped; with null when any package may have changed. The
   * sqlite store reports its own process's writes (one process serves a data dir); the PostgreSQL
   * store every process's, by LISTEN/NOTIFY (docs/registry/README.md says how soon).
   */
  onPackageChange(listener: PackageChangeListener): void;

  packageOwners(name: string): Promise<string[] | undefined>;
  scopeOwners(scope: string): Promise<string[]>;
  /** Adds then removes owners; refuses (changing nothing) to leave none. Returns the new list. */
  changeOwners(target: OwnerTarget, change: OwnerChange, at: string, actor: Actor): Promise<string[]>;

  /** `match` is an FTS5 expression built by registry/db/search-query.ts, or "" for every package. */
  search(match: string, limit: number, offset: number): Promise<SearchPage>;
  /**
   * The packages a listing shows: those `filter.match` (FTS5, or "" for every package) finds and
   * every given filter keeps, in `filter.sort` order (ties by name), with their listing facts.
   * `limit` undefined returns every such package.
   */
  browse(filter: BrowseFilter, limit: number | undefined, offset: number): Promise<BrowsePage>;
  /** Packages as search lists them, the one with the newest publish (of any version) first. */
  recentlyPublished(limit: number): Promise<SearchHit[]>;
  /** What a listing shows of each named package besides its search hit; unknown names are left out. */
  listingFacts(names: readonly string[]): Promise<Map<string, ListingFacts>>;
  addDownloads(counts: readonly DownloadCount[]): Promise<void>;

  createAdvisory(advisory: NewAdvisory, actor: Actor): Promise<AdvisoryRecord>;
  advisoriesFor(names: readonly string[]): Promise<AdvisoryRecord[]>;
  /** Newest first. */
  listAudit(limit: number, offset: number): Promise<AuditRecord[]>;

  /** Every integrity a version row names: blobs not in here are orphans. */
  storedIntegrities(): Promise<Set<string>>;
  hasIntegrity(integrity: string): Promise<boolean>;
  /**
   * True when other registry processes may use this store at the same time (PostgreSQL): a blob
   * that no row names yet may then be another process's publish in flight.
   */
  readonly shared: boolean;
  /**
   * Runs `work` (the start-up sweep) only while no other registry process uses this store, so it
   * cannot delete what another process is publishing; undefined when it did not run.
   */
  whileAlone<T>(work: () => Promise<T>): Promise<T | undefined>;
  /**
   * A setting every process on a shared store must agree on (the signing key): the stored value,
   * or `create()`'s, stored, when there is none. Undefined for a store of one process's own (sqlite
   * keeps such things in the data dir).
   */
  sharedSetting(key: string, create: () => string, at: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Told a changed package's name, or null for "any package may have changed". */
export type PackageChangeListener = (name: string | null) => void;

/** Who made a write, for the audit log: an owner (with the token used), or localActor. */
export interface Actor {
  owner: string;
  tokenId?: string;
}

/** Writes made with access to the data dir rather than a token: the first start, the CLI, imports. No owner name has parentheses. */
export const localActor: Actor = { owner: "(local)" };

export interface NewToken {
  id: string;
  hash: string;
  owner: string;
  scope: TokenScope;
  description: string | null;
  createdAt: string;
  expiresAt: string | null;
}

export interface TokenRecord {
  id: string;
  owner: string;
  scope: TokenScope;
  description: string | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface PackageRecord {
  id: number;
  name: string;
  createdAt: string;
  downloads: number;
}

/** What a version is, as published: its row never changes after the commit. */
interface PublishedVersion {
  name: string;
  version: string;
  prerelease: boolean;
  integrity: string;
  size: number;
  manifest: Record<string, unknown>;
  capabilities: string[];
  effects: string[];
  readme: string | null;
  publishedAt: string;
  signature: string;
  keyId: string;
}

export interface NewVersion extends PublishedVersion {
  publisher: Actor;
}

/** A stored version: what was published, with what has happened to it since. */
export interface VersionRecord extends PublishedVersion {
  id: number;
  publishedBy: string;
  yanked: { reason: string; at: string; by: string } | null;
  deprecated: { message: string; at: string; by: string } | null;
}

export interface TarballRecord {
  versionId: number;
  integrity: string;
}

export interface RightsFacts {
  name: string;
  /** undefined while the package does not exist. */
  packageOwners: string[] | undefined;
  /** Owners of the name's scope; empty for an unscoped name or an unclaimed scope. */
  scopeOwners: string[];
  /** Other packages whose name has the same skeleton (package/names.ts), with their owners. */
  confusable: Array<{ name: string; owners: string[] }>;
}

export type OwnerTarget = { package: string } | { scope: string };

export interface OwnerChange {
  add: readonly string[];
  remove: readonly string[];
}

export interface SearchHit {
  name: string;
  description: string;
  keywords: string[];
  version: string;
  downloads: number;
}

/** A package in a listing: when it last changed, and what the version search shows asks for. */
export interface ListingFacts {
  /** The newest publish of any of its versions. */
  lastPublishedAt: string;
  /** Requested capabilities (grant strings) and effects of the version search shows. */
  capabilities: string[];
  effects: string[];
}

export interface BrowseFilter {
  match: string;
  /** relevance (best match first) needs a match; downloads, most first; updated, newest publish first. */
  sort: "relevance" | "downloads" | "updated" | "name";
  /** Only packages this owner owns (not through a scope). */
  owner?: string;
  /** Only packages whose listed version has this keyword. */
  keyword?: string;
  /** Only packages whose listed version runs at this point. */
  point?: string;
}

export interface BrowsePage {
  total: number;
  results: Array<{ hit: SearchHit; facts: ListingFacts }>;
}

export interface SearchPage {
  total: number;
  results: SearchHit[];
}

export interface DownloadCount {
  versionId: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  count: number;
}

export interface NewAdvisory {
  packageName: string;
  range: string;
  severity: AdvisorySeverity;
  text: string;
  createdAt: string;
}

export interface AdvisoryRecord extends NewAdvisory {
  id: number;
  createdBy: string;
}

export interface AuditRecord {
  id: number;
  at: string;
  actor: string;
  tokenId: string | null;
  action: string;
  subject: string;
  details: Record<string, unknown> | null;
}
