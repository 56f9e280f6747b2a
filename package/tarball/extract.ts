import { chmod, mkdir, mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { InspectedTarball } from "./package-contents.js";

/**
 * Writes an inspected tarball's files (see inspectTarball: the same checks the registry applies
 * at publish) to `target`: only regular files and folders, modes rewritten to 644/755, into a
 * fresh temp folder beside `target` that is renamed into place when complete. A crash or an
 * abort leaves either no `target` or a whole one; the temp folder is removed on failure. When
 * `target` already exists (content-addressed: the same bytes), it is kept and nothing is written.
 * Returns false in that case, true when it extracted.
 */
export async function extractPackage(
  contents: InspectedTarball,
  target: string,
  signal?: AbortSignal,
): Promise<boolean> {
  if (await exists(target)) return false;
  await mkdir(dirname(target), { recursive: true });
  const temp = await mkdtemp(join(dirname(target), `.${basename(target).slice(0, 16)}.tmp-`));
  try {
    // mkdtemp makes it 0700; a package's folders are 755 like the ones inside it.
    await chmod(temp, 0o755);
    for (const directory of contents.directories) {
      signal?.throwIfAborted();
      await mkdir(join(temp, directory), { recursive: true, mode: 0o755 });
    }
    for (const file of contents.files) {
      signal?.throwIfAborted();
      // "wx": a path is written once; the inspection already refused duplicates and collisions.
      const handle = await open(join(temp, file.path), "wx", file.mode);
      try {
        await handle.writeFile(file.data);
        await handle.chmod(file.mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    signal?.throwIfAborted();
    try {
      await rename(temp, target);
    } catch (error) {
      // Another install put the same bytes there first: theirs are as good as ours.
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === "ENOTEMPTY" || code === "EEXIST") && (await exists(target))) {
        await rm(temp, { recursive: true, force: true });
        return false;
      }
      throw error;
    }
    return true;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
