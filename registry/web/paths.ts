/**
 * Page URLs. Package names are URL-safe apart from a scope's `@` and `/`, which paths may hold as
 * they are: links use /packages/@acme/guard, and the API's encoded form /packages/%40acme%2Fguard
 * reaches the same page.
 */

export function packageHref(name: string): string {
  return `/packages/${name}`;
}

export function versionHref(name: string, version: string): string {
  return `/packages/${name}/v/${encodeURIComponent(version)}`;
}

export interface PackagePath {
  name: string;
  version?: string;
}

/**
 * What follows /packages/ (already decoded) as a name and maybe a version: `name`, `@scope/name`,
 * either followed by `/v/<version>`. Undefined for any other shape. Names are not checked here.
 */
export function parsePackagePath(rest: string): PackagePath | undefined {
  const parts = rest.split("/");
  const nameLength = parts[0]?.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, nameLength).join("/");
  const tail = parts.slice(nameLength);
  if (tail.length === 0) return { name };
  if (tail.length === 2 && tail[0] === "v" && tail[1] !== "") return { name, version: tail[1] };
  return undefined;
}
