const messages = {
  PKG_ERR_NAME_INVALID: "The package name is not valid",
  PKG_ERR_VERSION_INVALID: "The version is not valid semver",
  PKG_ERR_MANIFEST_MISSING: "The tarball has no package/package.json",
  PKG_ERR_MANIFEST_INVALID: "The package.json is not a valid hook package manifest",
  PKG_ERR_UNSAFE_MATCHER: "A hookyard.matcher pattern is too long, not a regex, or can take exponential time",
  PKG_ERR_NAME_MISMATCH: "The package's name differs from the name it was asked for",
  PKG_ERR_VERSION_MISMATCH: "The package's version differs from the version it was asked for",
  PKG_ERR_MAIN_MISSING: "The file named by hookyard.main is not in the tarball",
} as const;

export type PackageErrorCode = keyof typeof messages;

export const packageErrorCodes = Object.keys(messages) as PackageErrorCode[];

/**
 * Why a package is not a hook package hookyard accepts: its name, version or manifest. Thrown
 * wherever a package is read (pack, publish, install, the registry); the registry answers it as
 * `REG_ERR_<same>` (registry/errors.ts), the client wraps it in a `ClientError`.
 */
export class PackageError extends Error {
  override readonly name = "PackageError";
  constructor(
    readonly code: PackageErrorCode,
    message: string = messages[code],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
