import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { computeIntegrity } from "../../package/integrity.js";
import { extractPackage } from "../../package/tarball/extract.js";
import { inspectTarball } from "../../package/tarball/inspect.js";
import { packTarball } from "../../package/tarball/pack.js";
import { bundleHook } from "../../runner/load/bundle.js";
import {
  formatLockfile,
  type LockEntry,
  type Lockfile,
  lockFileName,
  storePath,
} from "../../workspace/lockfile.js";
import { tempDir } from "./temp.js";

export interface FixturePackage {
  name: string;
  version?: string;
  /** The hook file (TypeScript, may import defineHook from "hookyard"), bundled as `hookyard pack` does. */
  source: string;
  /** The manifest's `hookyard` field, without `main` (always dist/hook.js). */
  hookyard: Record<string, unknown> & { events: string[] };
  trust?: LockEntry["trust"];
  grants?: string[];
}

export interface InstalledFixture {
  lock: Lockfile;
  /** Each package's store folder, by name. */
  store: Record<string, string>;
  /** Each package's bundle in the store, by name. */
  bundle: Record<string, string>;
}

const main = "dist/hook.js";

/**
 * Installs `packages` into the workspace at `root` the way `hookyard install` leaves it: each hook
 * bundled, packed into a real tarball, inspected and extracted into `.hookyard/store/<hex>/`, and
 * hookyard.lock written with the extracted files' hashes.
 */
export async function installFixture(root: string, packages: FixturePackage[]): Promise<InstalledFixture> {
  const lock: Lockfile = { lockfileVersion: 1, packages: {} };
  const store: Record<string, string> = {};
  const bundle: Record<string, string> = {};
  const sources = await tempDir();
  for (const pkg of packages) {
    const version = pkg.version ?? "1.0.0";
    const file = join(sources, `${pkg.name.replace(/[@/]/g, "_")}.ts`);
    await writeFile(file, pkg.source);
    const manifest = { name: pkg.name, version, license: "MIT", hookyard: { main, ...pkg.hookyard } };
    const tarball = await packTarball([
      { path: "package.json", data: `${JSON.stringify(manifest, null, 2)}\n` },
      { path: main, data: await bundleHook(file, "sandbox") },
      { path: "README.md", data: `# ${pkg.name}\n` },
    ]);
    const integrity = computeIntegrity(tarball);
    const dir = storePath(root, integrity);
    const contents = await inspectTarball(tarball);
    await extractPackage(contents, dir);
    const files: Record<string, string> = {};
    for (const { path } of contents.files) files[path] = computeIntegrity(await readFile(join(dir, path)));
    lock.packages[pkg.name] = {
      version,
      resolved: `http://127.0.0.1:9/v1/packages/${encodeURIComponent(pkg.name)}/${version}/tarball`,
      integrity,
      keyId: "test-key",
      signature: "dGVzdA==",
      trust: pkg.trust ?? "sandboxed",
      grants: pkg.grants ?? [],
      // What the manifest asks for is the installer's business; here the user granted all of it.
      requested: pkg.grants ?? [],
      main,
      files,
    };
    store[pkg.name] = dir;
    bundle[pkg.name] = join(dir, main);
  }
  await writeFile(join(root, lockFileName), formatLockfile(lock));
  return { lock, store, bundle };
}

/** A hook that answers every event it lists with `{ notice: <expression> }`, evaluated in the hook. */
export function noticeHook(name: string, expression: string, point = "tool_before"): string {
  return `import { defineHook } from "hookyard";
export default defineHook({
  name: ${JSON.stringify(name)},
  on: { async ${point}(ctx, api) { return { notice: String(${expression}) }; } },
});
`;
}
