import { PackageError, type PackageErrorCode } from "../package/errors.js";
import { TarballError, type TarballErrorCode } from "../package/tarball/errors.js";

/**
 * Every failure the registry reports, with its HTTP status. The codes are stable: clients (the
 * hookyard CLI) branch on them, and docs/registry/api.md has a row for each (a test checks it).
 */
const catalogue = {
  // requests
  REG_ERR_NOT_FOUND: [404, "There is no such route"],
  REG_ERR_BAD_REQUEST: [400, "The request is malformed"],
  REG_ERR_BAD_JSON: [400, "The request body is not valid JSON"],
  REG_ERR_VALIDATION: [400, "The request does not match the route's schema"],
  REG_ERR_BODY_TOO_LARGE: [413, "The request body is too large"],
  REG_ERR_UNSUPPORTED_MEDIA_TYPE: [415, "The request's content-type is not accepted here"],
  REG_ERR_RATE_LIMITED: [429, "Too many requests"],
  // authentication and rights
  REG_ERR_AUTH_REQUIRED: [401, "This route needs a bearer token"],
  REG_ERR_TOKEN_INVALID: [401, "The token is not known to this registry"],
  REG_ERR_TOKEN_EXPIRED: [401, "The token has expired"],
  REG_ERR_TOKEN_REVOKED: [401, "The token was revoked"],
  REG_ERR_FORBIDDEN: [403, "The token does not allow this"],
  // lookups
  REG_ERR_PACKAGE_NOT_FOUND: [404, "No such package"],
  REG_ERR_VERSION_NOT_FOUND: [404, "No such version"],
  REG_ERR_OWNER_NOT_FOUND: [404, "No such owner"],
  REG_ERR_TOKEN_NOT_FOUND: [404, "No such token"],
  // publishing
  REG_ERR_NAME_INVALID: [400, "The package name is not valid"],
  REG_ERR_VERSION_INVALID: [400, "The version is not valid semver"],
  REG_ERR_VERSION_EXISTS: [409, "This version was published before; versions are immutable"],
  REG_ERR_NAME_CONFUSABLE: [403, "The name is too close to another owner's package"],
  REG_ERR_NAME_MISMATCH: [400, "The name in the URL differs from the manifest's"],
  REG_ERR_VERSION_MISMATCH: [400, "The version in the URL differs from the manifest's"],
  REG_ERR_MANIFEST_MISSING: [400, "The tarball has no package/package.json"],
  REG_ERR_MANIFEST_INVALID: [400, "The package.json is not a valid hook package manifest"],
  REG_ERR_MAIN_MISSING: [400, "The file named by hookyard.main is not in the tarball"],
  REG_ERR_UNSAFE_MATCHER: [
    400,
    "A hookyard.matcher pattern is too long, not a regex, or can take exponential time",
  ],
  REG_ERR_TARBALL_GZIP_TOO_LARGE: [413, "The tarball is larger than the registry accepts"],
  REG_ERR_TARBALL_CORRUPT: [400, "The tarball is not a readable gzip-compressed tar archive"],
  REG_ERR_TARBALL_TOO_LARGE: [413, "The tarball unpacks to more bytes than the registry accepts"],
  REG_ERR_TARBALL_RATIO: [413, "The tarball unpacks to far more bytes than its size suggests"],
  REG_ERR_TARBALL_TOO_MANY_ENTRIES: [413, "The tarball holds more entries than the registry accepts"],
  REG_ERR_TARBALL_ENTRY_TYPE: [400, "The tarball holds an entry that is not a regular file or folder"],
  REG_ERR_TARBALL_MODE: [
    400,
    "The tarball holds an entry with a setuid, setgid or sticky bit, or writable by every user",
  ],
  REG_ERR_TARBALL_PATH: [400, "The tarball holds an entry whose path is unsafe"],
  REG_ERR_TARBALL_NAME_TOO_LONG: [400, "The tarball holds an entry whose name is too long"],
  REG_ERR_TARBALL_TOO_DEEP: [400, "The tarball holds an entry nested too deep"],
  REG_ERR_TARBALL_DUPLICATE: [400, "The tarball holds the same path twice"],
  REG_ERR_TARBALL_COLLISION: [400, "The tarball holds two paths that are the same on some file systems"],
  REG_ERR_TARBALL_LAYOUT: [400, "The tarball holds an entry outside its package/ folder"],
  // management
  REG_ERR_LAST_OWNER: [409, "The last owner cannot be removed"],
  // storage
  REG_ERR_BLOB_MISSING: [500, "The tarball's bytes are missing from storage"],
  REG_ERR_BLOB_CORRUPT: [500, "The stored tarball no longer matches its integrity"],
  REG_ERR_INTERNAL: [500, "The registry failed unexpectedly"],
  // start-up
  REG_ERR_DATA_DIR: [500, "The data directory cannot be used"],
  REG_ERR_DATABASE_TOO_NEW: [500, "The database was written by a newer hookyard"],
  REG_ERR_SIGNING_KEY: [500, "The signing key cannot be read"],
  REG_ERR_DATABASE_URL: [500, "The database URL is not one hookyard can open"],
  REG_ERR_DATABASE_UNREACHABLE: [500, "The database server cannot be reached"],
  REG_ERR_DATABASE_AUTH: [500, "The database server refused the credentials"],
  REG_ERR_DATA_DIR_LOCKED: [500, "Another registry process serves this data directory"],
  REG_ERR_BLOBS_URL: [500, "The blobs URL is not one hookyard can open"],
  REG_ERR_BLOBS_UNREACHABLE: [500, "The blob storage cannot be reached, or has no such bucket"],
  REG_ERR_BLOBS_AUTH: [500, "The blob storage refused the credentials"],
  REG_ERR_BLOBS_IN_USE: [500, "The bucket prefix holds another registry's tarballs"],
  // registry migrate
  REG_ERR_MIGRATE_TARGET_NOT_EMPTY: [500, "The migration's target already holds another registry"],
  REG_ERR_MIGRATE_TARGET_BUSY: [500, "Another migration is writing to this target"],
  REG_ERR_MIGRATE_BLOB_CORRUPT: [500, "A source tarball no longer matches its integrity"],
  REG_ERR_MIGRATE_BLOB_MISSING: [500, "A source tarball is missing"],
  REG_ERR_MIGRATE_VERIFY: [500, "The target does not hold what was copied"],
  REG_ERR_MIGRATE_UNKNOWN_TABLE: [500, "The source has a table this hookyard cannot migrate"],
  REG_ERR_MIGRATE_UNFINISHED: [500, "A migration into this database has not finished"],
  REG_ERR_MIGRATE_OPTIONS: [500, "The migration's source or target is not usable as given"],
} as const satisfies Record<string, readonly [number, string]>;

export type RegistryErrorCode = keyof typeof catalogue;

export const registryErrorCodes = Object.keys(catalogue) as RegistryErrorCode[];

export class RegistryError extends Error {
  override readonly name = "RegistryError";
  readonly statusCode: number;
  constructor(
    readonly code: RegistryErrorCode,
    message: string = catalogue[code][1],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.statusCode = catalogue[code][0];
  }
}

/** The body of every error response. */
export interface ErrorBody {
  error: { code: RegistryErrorCode; message: string };
}

const tarballCodes: Record<TarballErrorCode, RegistryErrorCode> = {
  TARBALL_ERR_GZIP_TOO_LARGE: "REG_ERR_TARBALL_GZIP_TOO_LARGE",
  TARBALL_ERR_CORRUPT: "REG_ERR_TARBALL_CORRUPT",
  TARBALL_ERR_TOO_LARGE: "REG_ERR_TARBALL_TOO_LARGE",
  TARBALL_ERR_RATIO: "REG_ERR_TARBALL_RATIO",
  TARBALL_ERR_TOO_MANY_ENTRIES: "REG_ERR_TARBALL_TOO_MANY_ENTRIES",
  TARBALL_ERR_ENTRY_TYPE: "REG_ERR_TARBALL_ENTRY_TYPE",
  TARBALL_ERR_MODE: "REG_ERR_TARBALL_MODE",
  TARBALL_ERR_PATH: "REG_ERR_TARBALL_PATH",
  TARBALL_ERR_NAME_TOO_LONG: "REG_ERR_TARBALL_NAME_TOO_LONG",
  TARBALL_ERR_TOO_DEEP: "REG_ERR_TARBALL_TOO_DEEP",
  TARBALL_ERR_DUPLICATE: "REG_ERR_TARBALL_DUPLICATE",
  TARBALL_ERR_COLLISION: "REG_ERR_TARBALL_COLLISION",
  TARBALL_ERR_LAYOUT: "REG_ERR_TARBALL_LAYOUT",
};

/** The registry code for a tarball refusal: TARBALL_ERR_X becomes REG_ERR_TARBALL_X. */
function registryCodeForTarball(code: TarballErrorCode): RegistryErrorCode {
  return tarballCodes[code];
}

/** A package's own refusal, answered with the registry's code for it: PKG_ERR_X becomes REG_ERR_X. */
function registryCodeForPackage(code: PackageErrorCode): RegistryErrorCode {
  return code.replace(/^PKG_ERR_/, "REG_ERR_") as RegistryErrorCode;
}

/**
 * What the package part threw (a name, a manifest, a tarball refused) as the registry answers it;
 * undefined for anything else. The routes' error handler and the publish pipeline both use it.
 */
export function registryErrorFor(thrown: unknown): RegistryError | undefined {
  if (thrown instanceof PackageError) {
    return new RegistryError(registryCodeForPackage(thrown.code), thrown.message, { cause: thrown });
  }
  if (thrown instanceof TarballError) {
    return new RegistryError(registryCodeForTarball(thrown.code), thrown.message, { cause: thrown });
  }
  return undefined;
}

export function versionExists(name: string, version: string): RegistryError {
  return new RegistryError(
    "REG_ERR_VERSION_EXISTS",
    `${name}@${version} was published before, and versions are immutable (even yanked ones): bump the version and publish again`,
  );
}
