import type { InspectedTarball } from "../../registry/tarball/inspect.js";
import { computeIntegrity } from "../../runner/integrity.js";

/** Each file of a package with its SRI sha512: what hookyard.lock records and the store is checked against. */
export function fileHashes(contents: InspectedTarball): Record<string, string> {
  return Object.fromEntries(contents.files.map((file) => [file.path, computeIntegrity(file.data)]));
}
