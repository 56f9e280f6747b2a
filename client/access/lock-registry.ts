import { RunnerError } from "../../core/errors.js";
import type { LockEntry } from "../../workspace/lockfile.js";

const tarballPath = "/v1/packages/";

/**
 * The registry an installed package came from: its lock entry's `resolved` tarball URL up to
 * `/v1/packages/` (a registry may live under a path prefix). Each package is asked about at its own
 * registry, whatever --registry or hookyard.json say today.
 */
export function lockEntryRegistry(name: string, entry: Pick<LockEntry, "resolved">): string {
  const invalid = (why: string) =>
    new RunnerError(
      "RUN_ERR_LOCK_INVALID",
      `hookyard.lock: ${name}'s resolved URL ${entry.resolved} ${why}; reinstall it with \`hookyard install ${name}\``,
    );
  let url: URL;
  try {
    url = new URL(entry.resolved);
  } catch {
    throw invalid("is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("is not an http(s) URL");
  if (url.username || url.password) throw invalid("holds credentials");
  // The name is URL-encoded in the path (@scope%2Fname) and a version has no "/", so the last
  // occurrence is the registry's own, even under a prefix that repeats it.
  const at = url.pathname.lastIndexOf(tarballPath);
  if (at < 0) throw invalid(`is not a registry tarball URL (no ${tarballPath})`);
  return `${url.origin}${url.pathname.slice(0, at)}`;
}
