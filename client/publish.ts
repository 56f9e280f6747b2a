import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type RegistryFlags, registryAccess } from "./access/registry-access.js";
import type { ClientContext } from "./context.js";
import { ClientError } from "./errors.js";
import { packPackage } from "./pack/pack-package.js";
import { explainPublishRefusal } from "./pack/publish-refusal.js";
import { readTarballPackage } from "./pack/tarball-package.js";

export interface Published {
  name: string;
  version: string;
  registry: string;
  integrity: string;
  size: number;
}

/**
 * Publishes a package folder (packed first, exactly as `pack` packs it, no .tgz left behind) or a
 * .tgz (byte for byte). The token comes first: without one, nothing is bundled or read.
 */
export async function publish(
  context: ClientContext,
  target: string,
  flags: RegistryFlags = {},
): Promise<Published> {
  const path = resolve(context.cwd, target);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ClientError("CLI_ERR_USAGE", `${path} does not exist`);
  const client = await registryAccess(context, flags, { needToken: true });
  const pkg = info.isDirectory() ? await packPackage(path) : await readTarballPackage(path);
  const published = { name: pkg.name, version: pkg.version, registry: client.url };
  try {
    await client.publish(pkg.name, pkg.version, pkg.tarball);
  } catch (error) {
    throw explainPublishRefusal(error, published);
  }
  return { ...published, integrity: pkg.integrity, size: pkg.tarball.length };
}
