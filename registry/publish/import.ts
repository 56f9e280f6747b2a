import { authorizePublish } from "../access/rights.js";
import type { RegistryContext } from "../context.js";
import { localActor, type NewVersion, type VersionRecord } from "../store.js";
import { discardUnnamedBlobs, prepareVersion } from "./publish.js";

export interface ImportItem {
  name: string;
  version: string;
  /** Made if it does not exist; it becomes the owner of new packages. */
  owner: string;
  tarball: Buffer;
}

/**
 * Publishes many versions without HTTP, for seeding a registry (benchmarks, migrations from
 * another registry): each tarball is checked exactly as a publish checks it, the blobs are written
 * (`durable: false` skips the fsyncs), then every row is committed in one transaction, so the
 * import lands whole or not at all. Rights are those each owner would have over HTTP. Not for a
 * registry that is taking publishes at the same time.
 */
export async function importVersions(
  ctx: RegistryContext,
  items: readonly ImportItem[],
  options: { durable?: boolean } = {},
): Promise<VersionRecord[]> {
  const at = ctx.now().toISOString();
  for (const owner of new Set(items.map((item) => item.owner))) {
    await ctx.store.ensureOwner(owner, at, localActor);
  }
  const prepared: NewVersion[] = [];
  // A few at a time: checking is CPU, storing is I/O, and they overlap.
  for (let start = 0; start < items.length; start += 16) {
    const batch = items.slice(start, start + 16);
    const versions = await Promise.all(
      batch.map(async (item) => {
        const version = await prepareVersion(ctx, { ...item, publisher: { owner: item.owner } });
        await ctx.blobs.put(version.integrity, item.tarball, { durable: options.durable ?? true });
        return version;
      }),
    );
    prepared.push(...versions);
  }
  try {
    return await ctx.store.publishVersions(prepared, (facts, item) =>
      authorizePublish({ tokenId: "", owner: item.publisher.owner, scope: "publish" }, facts),
    );
  } catch (error) {
    await discardUnnamedBlobs(ctx, prepared);
    throw error;
  }
}
