import { RegistryError } from "../errors.js";

/** The target signs with a key of its own: it is another registry, whatever its tables say. */
export function differentKey(target: string): RegistryError {
  return new RegistryError(
    "REG_ERR_MIGRATE_TARGET_NOT_EMPTY",
    `${target} already has a signing key that is not the source's: it belongs to another registry (migrate into an empty database and blob store)`,
  );
}

/**
 * A copied row collided with one already in the target. Each batch commits with the marker, so a
 * resumed run never copies a row twice: the row was written by something else (a `registry serve`
 * started on the target too early), and copying on would mix two registries.
 */
export function writtenMeanwhile(target: string, table: string, cause: unknown): RegistryError {
  return new RegistryError(
    "REG_ERR_MIGRATE_VERIFY",
    `a row of ${table} is already in ${target}, written by something other than this migration (${(cause as Error).message}): was a registry served on the target before the migration finished? Migrate into a new, empty database`,
    { cause },
  );
}
