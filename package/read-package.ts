import { posix } from "node:path";
import { describeIssues } from "../core/errors.js";
import { requestedGrants } from "../sandbox/capabilities.js";
import { PackageError } from "./errors.js";
import { type PackageManifest, packageManifestSchema, unsafeMatcher } from "./manifest.js";
import type { InspectedTarball } from "./tarball/inspect.js";

/** What a version row needs from the tarball's contents. */
export interface PackageFacts {
  manifest: PackageManifest;
  /** Requested capabilities as grant strings. */
  capabilities: string[];
  effects: string[];
  readme: string | null;
}

/** Readmes longer than this are cut: the metadata document carries the latest one whole. */
export const maxReadmeBytes = 256 * 1024;

const readmeNames = ["readme.md", "readme.markdown", "readme", "readme.txt"];

/**
 * Reads and checks package.json from an inspected tarball: it must be a valid hook manifest
 * (every bad field listed), its matchers must pass the regex policy, name and version must match
 * the URL, and hookyard.main must be a file in the tarball.
 */
export function readPackage(contents: InspectedTarball, name: string, version: string): PackageFacts {
  const file = contents.files.find((f) => f.path === "package.json");
  if (!file) {
    throw new PackageError(
      "PKG_ERR_MANIFEST_MISSING",
      "the tarball has no package/package.json (pack the package with `hookyard pack`)",
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(file.data.toString("utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new PackageError(
      "PKG_ERR_MANIFEST_INVALID",
      `package.json is not valid JSON: ${(error as Error).message}`,
    );
  }
  const parsed = packageManifestSchema.safeParse(json);
  if (!parsed.success) {
    throw new PackageError(
      "PKG_ERR_MANIFEST_INVALID",
      `package.json is not a valid hook package manifest: ${describeIssues(parsed.error)}`,
    );
  }
  const manifest = parsed.data;
  const unsafe = unsafeMatcher(manifest.hookyard);
  if (unsafe !== undefined) {
    throw new PackageError(
      "PKG_ERR_UNSAFE_MATCHER",
      `package.json has a matcher hookyard will not run: ${unsafe}`,
    );
  }
  if (manifest.name !== name) {
    throw new PackageError(
      "PKG_ERR_NAME_MISMATCH",
      `the URL publishes ${name} but package.json names ${manifest.name}: publish it under its own name`,
    );
  }
  if (manifest.version !== version) {
    throw new PackageError(
      "PKG_ERR_VERSION_MISMATCH",
      `the URL publishes version ${version} but package.json says ${manifest.version}`,
    );
  }
  const main = posix.normalize(manifest.hookyard.main);
  if (!contents.files.some((f) => f.path === main)) {
    throw new PackageError(
      "PKG_ERR_MAIN_MISSING",
      `hookyard.main is ${JSON.stringify(manifest.hookyard.main)}, but the tarball has no such file (build the hook before packing)`,
    );
  }
  return {
    manifest,
    capabilities: requestedGrants(manifest.hookyard.capabilities, manifest.hookyard.effects),
    effects: [...manifest.hookyard.effects],
    readme: readReadme(contents),
  };
}

function readReadme(contents: InspectedTarball): string | null {
  const candidates = contents.files.filter(
    (f) => !f.path.includes("/") && readmeNames.includes(f.path.toLowerCase()),
  );
  candidates.sort(
    (a, b) => readmeNames.indexOf(a.path.toLowerCase()) - readmeNames.indexOf(b.path.toLowerCase()),
  );
  const file = candidates[0];
  if (!file) return null;
  return file.data.subarray(0, maxReadmeBytes).toString("utf8");
}
