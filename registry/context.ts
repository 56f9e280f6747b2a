import type { FastifyBaseLogger } from "fastify";
import type { TarballLimits } from "../package/tarball/inspect.js";
import type { BlobStore } from "./blobs/blob-store.js";
import type { VerifiedBlobs } from "./blobs/verified-blobs.js";
import type { DataDir } from "./data/data-dir.js";
import type { DownloadCounter } from "./data/downloads.js";
import type { KeyedLock } from "./data/keyed-lock.js";
import type { PackageDocuments } from "./documents/package-documents.js";
import type { Signer } from "./signing.js";
import type { RegistryStore } from "./store.js";

/** A publish that has written its blob and is about to commit its row. */
export interface PendingPublish {
  name: string;
  version: string;
  integrity: string;
}

export interface RegistryHooks {
  /**
   * Test seam: runs after the blob is stored and before the row is committed. Throwing fails the
   * publish (its blob is removed); never resolving models a crash at the worst moment.
   */
  beforeCommit?(pending: PendingPublish): void | Promise<void>;
}

/** Everything the routes and the publish pipeline share: one per running registry. */
export interface RegistryContext {
  dataDir: DataDir;
  store: RegistryStore;
  blobs: BlobStore;
  /** Tarball bytes for downloads: checked against their integrity, kept while unchanged. */
  tarballs: VerifiedBlobs;
  /** Serialised package documents for metadata reads, dropped on every change. */
  documents: PackageDocuments;
  signer: Signer;
  tarballLimits: TarballLimits;
  now(): Date;
  hooks: RegistryHooks;
  blobLocks: KeyedLock;
  downloads: DownloadCounter;
  log: FastifyBaseLogger;
}
