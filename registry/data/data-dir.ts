import { existsSync } from "node:fs";
import { mkdir, open, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { RegistryError } from "../errors.js";

/**
 * Where a registry keeps its state, all inside one directory so that a copy of it is a backup:
 *
 *   registry.sqlite (+ -wal, -shm)   the database
 *   blobs/sha512/<hh>/<hex>          tarballs, named by the hex of their sha512
 *   keys/ed25519.pem                 the signing key (mode 0600)
 *   tmp/                             blobs being written; emptied at start (FsBlobStore.clearPartial)
 */
export interface DataDir {
  root: string;
  database: string;
  blobs: string;
  keys: string;
  signingKey: string;
  tmp: string;
}

export function dataDirLayout(root: string): DataDir {
  const absolute = resolve(root);
  return {
    root: absolute,
    database: join(absolute, "registry.sqlite"),
    blobs: join(absolute, "blobs"),
    keys: join(absolute, "keys"),
    signingKey: join(absolute, "keys", "ed25519.pem"),
    tmp: join(absolute, "tmp"),
  };
}

/**
 * Creates the layout (or, with `mustExist`, insists that a registry already lives there) and
 * proves the directory is writable, so a bad --data fails at start with one clear message.
 */
export async function prepareDataDir(root: string, options: { mustExist?: boolean } = {}): Promise<DataDir> {
  const layout = dataDirLayout(root);
  const refuse = (problem: string, cause?: unknown) =>
    new RegistryError(
      "REG_ERR_DATA_DIR",
      `cannot use ${layout.root} as the registry's data directory: ${problem}`,
      cause === undefined ? undefined : { cause },
    );
  if (options.mustExist && !existsSync(layout.database)) {
    throw refuse("no registry database there (start one with `hookyard registry serve --data <dir>`)");
  }
  try {
    const found = await stat(layout.root).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (found && !found.isDirectory()) throw refuse("it is not a directory (pass a directory to --data)");
    for (const dir of [layout.root, layout.blobs, layout.keys, layout.tmp]) await makeDirectory(dir);
    const probe = join(layout.tmp, `.probe-${process.pid}`);
    await (await open(probe, "w")).close();
    await rm(probe);
  } catch (error) {
    if (error instanceof RegistryError) throw error;
    const reason = (error as Error).message;
    throw refuse(`${reason} (pass a directory you may write to)`, error);
  }
  return layout;
}

/**
 * mkdir -p, by hand: Node's `{ recursive: true }` loops forever where mkdir answers ENOENT under a
 * parent that exists (any path below /proc), and a bad --data must fail, not hang.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const made = await mkdir(dir).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "EEXIST") return true;
      if (error.code === "ENOENT" && dirname(dir) !== dir) return false;
      throw error;
    },
  );
  if (made) return;
  await makeDirectory(dirname(dir));
  await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
}
