import { randomUUID } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import { defaultTarballLimits, type TarballLimits } from "../package/tarball/inspect.js";
import { issueToken } from "./access/tokens.js";
import type { BlobStore } from "./blobs/blob-store.js";
import {
  type BlobsLocation,
  blobsUrlOf,
  describeBlobs,
  openBlobStoreFromUrl,
  parseBlobsUrl,
} from "./blobs/blob-url.js";
import { VerifiedBlobs } from "./blobs/verified-blobs.js";
import type { RegistryContext, RegistryHooks } from "./context.js";
import { prepareDataDir } from "./data/data-dir.js";
import { DownloadCounter } from "./data/downloads.js";
import { KeyedLock } from "./data/keyed-lock.js";
import { lockEmbedded } from "./data/serve-lock.js";
import { sweepOrphanBlobs } from "./data/sweep.js";
import { type DatabaseLocation, openStoreFromUrl, parseDatabaseUrl } from "./database-url.js";
import { PackageDocuments } from "./documents/package-documents.js";
import { RegistryError } from "./errors.js";
import { bearerAuth, type RateWindow } from "./http/auth.js";
import { installErrorHandlers } from "./http/errors.js";
import { loggerOptions, type RegistryLoggerOptions } from "./http/logging.js";
import { registerOpenApi } from "./http/openapi.js";
import { helmetHeaders } from "./http/security-headers.js";
import { zodValidatorCompiler } from "./http/validation.js";
import { adminRoutes } from "./routes/admin.js";
import { advisoryRoutes } from "./routes/advisories.js";
import type { RouteDeps } from "./routes/deps.js";
import { ownerRoutes } from "./routes/owners.js";
import { packageRoutes } from "./routes/packages.js";
import { publishRoute, tarballContentTypes } from "./routes/publish.js";
import { searchRoute } from "./routes/search.js";
import { tokenRoutes } from "./routes/tokens.js";
import { versionRoutes } from "./routes/versions.js";
import { loadOrCreateSharedSigner, loadOrCreateSigner } from "./signing.js";
import { localActor, type RegistryStore } from "./store.js";
import { sendNotFoundPage } from "./web/error-page.js";
import { webPages } from "./web/routes.js";

export interface RegistryLimits extends TarballLimits {
  /** Largest JSON request body. */
  maxJsonBodyBytes: number;
}

export interface RateLimits {
  /** Failed authentications per client address. */
  failedAuth: RateWindow;
  /** Publishes per token. */
  publish: RateWindow;
}

/** What the registry keeps in memory to answer reads without the disk. */
export interface RegistryCacheSizes {
  /** Serialised package documents, in bytes; 0 keeps none. */
  documentBytes: number;
  /** Verified tarballs, in bytes; 0 keeps none. */
  tarballBytes: number;
}

export interface RegistryOptions {
  /** Holds the database, the blobs and the signing key; created if missing. */
  dataDir: string;
  /**
   * The metadata store, when not the data dir's sqlite file: `sqlite:<path>` or `postgres://…`
   * (database-url.ts). On PostgreSQL several processes may serve one registry; the signing key is
   * then kept in the database and the data dir holds only the blobs.
   */
  database?: string | DatabaseLocation;
  /**
   * Where the tarballs live, when not the data dir's blobs/: `file:<dir>` or
   * `s3://bucket[/prefix]?endpoint=…` (blobs/blob-url.ts). With PostgreSQL and S3 the data dir
   * holds nothing that processes share.
   */
  blobs?: string | BlobsLocation;
  /** pino JSON logs; off unless given. */
  logger?: RegistryLoggerOptions | false;
  limits?: Partial<RegistryLimits>;
  rateLimit?: { failedAuth?: Partial<RateWindow>; publish?: Partial<RateWindow> };
  cache?: Partial<RegistryCacheSizes>;
  /** How often counted downloads are written to the database (search ranks by what is written). */
  downloadFlushMs?: number;
  /**
   * Behind a reverse proxy: which proxies' X-Forwarded-For to believe (fastify's trustProxy:
   * true, or addresses/CIDRs). Without it every client has the proxy's address, so the
   * failed-authentication limit would lock everyone out together.
   */
  trustProxy?: boolean | string;
  /** The clock (publish times, token expiry); tests move it. */
  now?: () => Date;
  /** Test seams (`beforeCommit`): only a test's own code passes them; `hookyard registry serve` passes none. */
  hooks?: RegistryHooks;
}

export const defaultRegistryLimits: RegistryLimits = { ...defaultTarballLimits, maxJsonBodyBytes: 64 * 1024 };

export const defaultCacheSizes: RegistryCacheSizes = {
  documentBytes: 64 * 1024 * 1024,
  tarballBytes: 64 * 1024 * 1024,
};

export const defaultDownloadFlushMs = 1_000;

export const defaultRateLimits: RateLimits = {
  failedAuth: { max: 10, timeWindowMs: 60_000 },
  publish: { max: 30, timeWindowMs: 60_000 },
};

/** What a built registry exposes besides HTTP: storage for seeding and inspection, and the first admin token. */
export interface RegistryHandle extends RegistryContext {
  /** The admin token made at the first start of an empty data dir; undefined on later starts. */
  initialAdminToken: string | undefined;
  /** Orphan blobs removed by the start-up sweep. */
  sweptBlobs: string[];
}

export type Registry = FastifyInstance & { registry: RegistryHandle };

/**
 * The registry as a fastify instance, not yet listening. Opens (or creates) the data dir, applies
 * migrations, removes what a crashed process left behind, and on first start makes an admin token.
 * Closing the instance flushes download counts and closes the database.
 */
export async function buildRegistry(options: RegistryOptions): Promise<Registry> {
  const now = options.now ?? (() => new Date());
  const limits = { ...defaultRegistryLimits, ...options.limits };
  const rates: RateLimits = {
    failedAuth: { ...defaultRateLimits.failedAuth, ...options.rateLimit?.failedAuth },
    publish: { ...defaultRateLimits.publish, ...options.rateLimit?.publish },
  };
  const cache = { ...defaultCacheSizes, ...options.cache };
  const dataDir = await prepareDataDir(options.dataDir);
  const database =
    typeof options.database === "string" ? parseDatabaseUrl(options.database) : options.database;
  const blobsAt = typeof options.blobs === "string" ? parseBlobsUrl(options.blobs) : options.blobs;
  // An embedded registry is one process; on PostgreSQL any number share the database.
  const unlock = await lockEmbedded(dataDir.root, database);
  let store: RegistryStore;
  let blobs: BlobStore;
  try {
    // The bucket is checked first: it costs no connection to keep open if it is refused.
    blobs = blobsAt
      ? await openBlobStoreFromUrl(blobsAt)
      : await openBlobStoreFromUrl({ kind: "file", dir: dataDir.blobs }, { tmpDir: dataDir.tmp });
  } catch (error) {
    await unlock();
    throw error;
  }
  try {
    store = await openStoreFromUrl(database ?? { kind: "sqlite", file: dataDir.database });
  } catch (error) {
    blobs.close?.();
    await unlock();
    throw error;
  }
  const release = () => {
    blobs.close?.();
    return store.close().finally(unlock);
  };
  let app: FastifyInstance | undefined;
  try {
    const signer =
      (await loadOrCreateSharedSigner((create) =>
        store.sharedSetting("signing_key", create, now().toISOString()),
      )) ?? (await loadOrCreateSigner(dataDir.signingKey));
    await refuseAnotherRegistrysBlobs(blobs, blobsAt, signer.keyId);
    // Another process's publish in flight is a blob without its row yet: sweep only when alone.
    // The first admin token is made there too, so two first starts on one database make one.
    const { sweptBlobs, initialAdminToken } = (await store.whileAlone(async () => {
      // Half-written blobs in a file store's temp folder; an S3 put is atomic and leaves none.
      await blobs.clearPartial?.();
      return {
        sweptBlobs: await sweepOrphanBlobs(store, blobs),
        initialAdminToken: await firstAdminToken(store, now()),
      };
    })) ?? { sweptBlobs: [], initialAdminToken: undefined };

    app = Fastify({
      logger: loggerOptions(options.logger),
      genReqId: () => randomUUID(),
      bodyLimit: limits.maxJsonBodyBytes,
      requestTimeout: 120_000,
      trustProxy: options.trustProxy ?? false,
      // A name may be 214 characters, and a scoped one is sent encoded (%40, %2F): fastify's
      // default of 100 would refuse long names with a 414 before any route saw them.
      routerOptions: { maxParamLength: 512 },
    });
    const log = app.log;
    if (sweptBlobs.length > 0)
      log.warn({ blobs: sweptBlobs }, "removed orphan blobs left by an interrupted publish");
    const downloads = new DownloadCounter(
      store,
      now,
      (error) => log.error({ err: error }, "download counts could not be written (kept for the next try)"),
      options.downloadFlushMs ?? defaultDownloadFlushMs,
    );
    const handle: RegistryHandle = {
      dataDir,
      store,
      blobs,
      tarballs: new VerifiedBlobs(blobs, cache.tarballBytes),
      documents: new PackageDocuments(store, cache.documentBytes),
      signer,
      tarballLimits: limits,
      now,
      hooks: options.hooks ?? {},
      blobLocks: new KeyedLock(),
      downloads,
      log,
      initialAdminToken,
      sweptBlobs,
    };
    app.decorate("registry", handle);
    app.addHook("onClose", async () => {
      try {
        await downloads.close();
      } finally {
        await release();
      }
    });
    await configure(app, handle, rates);
    return app as Registry;
  } catch (error) {
    await (app ? app.close() : release());
    throw error;
  }
}

async function configure(app: FastifyInstance, ctx: RegistryContext, rates: RateLimits): Promise<void> {
  app.setValidatorCompiler(zodValidatorCompiler);
  installErrorHandlers(app, { notFoundPage: sendNotFoundPage });
  // Set before anything can fail, so errors carry them too. A callback hook: an async one costs a
  // promise per request.
  const securityHeaders = await helmetHeaders();
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(securityHeaders).header("x-request-id", request.id);
    done();
  });
  // JSON and tarballs are all the API takes: anything else is REG_ERR_UNSUPPORTED_MEDIA_TYPE.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    tarballContentTypes,
    { parseAs: "buffer", bodyLimit: ctx.tarballLimits.maxGzipBytes },
    (_request, body, done) => done(null, body),
  );
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, limit) =>
      new RegistryError("REG_ERR_RATE_LIMITED", `too many requests: try again in ${limit.after}`),
  });
  await registerOpenApi(app);

  const deps: RouteDeps = { ctx, auth: bearerAuth(app, ctx, rates.failedAuth), publishRate: rates.publish };
  for (const routes of [
    packageRoutes,
    publishRoute,
    versionRoutes,
    ownerRoutes,
    searchRoute,
    tokenRoutes,
    advisoryRoutes,
    adminRoutes,
  ]) {
    routes(app, deps);
  }
  await app.register(webPages, { ctx });
}

/**
 * Two registries on one bucket prefix would each sweep away the other's tarballs as orphans: the
 * prefix is marked with the first one's signing key, and any other registry is refused there.
 */
async function refuseAnotherRegistrysBlobs(
  blobs: BlobStore,
  location: BlobsLocation | undefined,
  registry: string,
): Promise<void> {
  const other = await blobs.claim?.(registry);
  if (other === undefined || !location) return;
  throw new RegistryError(
    "REG_ERR_BLOBS_IN_USE",
    `${describeBlobs(blobsUrlOf(location))} holds the tarballs of another registry (signing key ${other}), which this one's start-up sweep would delete: give each registry a bucket or a prefix of its own (s3://bucket/<prefix>)`,
  );
}

async function firstAdminToken(store: RegistryStore, now: Date): Promise<string | undefined> {
  if (!(await store.isEmpty())) return undefined;
  const issued = await issueToken(store, {
    owner: "admin",
    scope: "admin",
    expiresInMs: null,
    description: "made at the registry's first start",
    now,
    actor: localActor,
  });
  return issued.token;
}
