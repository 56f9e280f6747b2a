import { RegistryError } from "../errors.js";

/** The target signs with a key of its own: it is another registry, whatever its tables say. */
export function differentKey(target: string): RegistryError {
  return new RegistryError(
    "REG_ERR_MIGRATE_TARGET_NOT_EMPTY",
    `${target} already has a signing key that is not the source's: it belongs to another registry (migrate into an empty database and blob store)`,
  );
}
