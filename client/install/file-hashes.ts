import { computeIntegrity } from "../../package/integrity.js";
import type { InspectedTarball } from "../../package/tarball/inspect.js";

/** Each file of a package with its SRI sha512: what hookyard.lock records and the store is checked against. */
export function fileHashes(contents: InspectedTarball): Record<string, string> {
  return Object.fromEntries(contents.files.map((file) => [file.path, computeIntegrity(file.data)]));
}
