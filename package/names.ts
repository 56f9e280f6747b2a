import { PackageError } from "./errors.js";
import { packageNameSchema, packageVersionSchema } from "./manifest.js";

/** `@acme` for `@acme/guard`, undefined for an unscoped name. */
export function scopeOf(name: string): string | undefined {
  return name.startsWith("@") ? name.slice(0, name.indexOf("/")) : undefined;
}

/**
 * Two names with the same skeleton differ only by case, `.`, `-` or `_` (`left-pad`, `left_pad`,
 * `leftpad`): a user cannot tell them apart, so only their owner may hold more than one.
 */
export function nameSkeleton(name: string): string {
  return name.toLowerCase().replace(/[._-]/g, "");
}

export function checkPackageName(name: string): string {
  const parsed = packageNameSchema.safeParse(name);
  if (!parsed.success) {
    throw new PackageError(
      "PKG_ERR_NAME_INVALID",
      `${JSON.stringify(name)} is not a valid package name: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

export function checkVersion(version: string): string {
  if (!packageVersionSchema.safeParse(version).success) {
    throw new PackageError(
      "PKG_ERR_VERSION_INVALID",
      `${JSON.stringify(version)} is not a valid semver version (write it as 1.2.3 or 1.2.3-beta.1)`,
    );
  }
  return version;
}

/** Owner (publisher) names: lower case letters, digits, `-`, `_`, `.`; 1 to 64 characters. */
export const ownerNamePattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** npm scope syntax: `@` and a name part. */
export const scopePattern = /^@[a-z0-9][a-z0-9._~-]*$/;
