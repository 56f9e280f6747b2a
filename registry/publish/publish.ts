import semver from "semver";
import { computeIntegrity } from "../../package/integrity.js";
import { checkPackageName, checkVersion } from "../../package/names.js";
import { readPackage } from "../../package/read-package.js";
import { signedMessage } from "../../package/signature.js";
import { inspectTarball } from "../../package/tarball/inspect.js";
import { authorizePublish, type Principal } from "../access/rights.js";
import type { RegistryContext } from "../context.js";
import { registryErrorFor, versionExists } from "../errors.js";
import type { Actor, NewVersion, VersionRecord } from "../store.js";

export interface PublishRequest {
  name: string;
  version: string;
  tarball: Buffer;
  principal: Principal;
}

/**
 * PUT /v1/packages/:name/:version without the HTTP. Every refusal happens before anything is
 * written; then the blob is stored durably, then the row is committed (with the rights checked
 * again inside the transaction), and a failed commit removes the blob again (discardUnnamedBlobs).
 * A crash between the two leaves an orphan blob that the next start sweeps.
 */
export async function publishVersion(ctx: RegistryContext, request: PublishRequest): Promise<VersionRecord> {
  const { name, version, principal } = request;
  try {
    checkPackageName(name);
    checkVersion(version);
  } catch (error) {
    throw registryErrorFor(error) ?? error;
  }
  authorizePublish(principal, await ctx.store.rightsFacts(name));
  if (await ctx.store.getVersion(name, version)) throw versionExists(name, version);
  const publisher: Actor = { owner: principal.owner, tokenId: principal.tokenId };
  const prepared = await prepareVersion(ctx, { name, version, tarball: request.tarball, publisher });
  return ctx.blobLocks.run(prepared.integrity, async () => {
    await ctx.blobs.put(prepared.integrity, request.tarball);
    try {
      await ctx.hooks.beforeCommit?.({ name, version, integrity: prepared.integrity });
      const [record] = await ctx.store.publishVersions([prepared], (facts) =>
        authorizePublish(principal, facts),
      );
      // On a shared store, a start that found itself alone (while this process's lock connection
      // was lost for a moment) may have swept the blob as an orphan before the row was committed.
      if (ctx.store.shared && (await ctx.blobs.revision(prepared.integrity)) === undefined) {
        await ctx.blobs.put(prepared.integrity, request.tarball);
      }
      return record as VersionRecord;
    } catch (error) {
      await discardUnnamedBlobs(ctx, [prepared]);
      throw error;
    }
  });
}

/**
 * Checks a tarball and turns it into a version row, signed, without storing anything: the
 * tarball is inspected and its manifest read (a TarballError or PackageError becomes its REG_ERR_*), and the
 * integrity computed here, never taken from the client.
 */
export async function prepareVersion(
  ctx: Pick<RegistryContext, "signer" | "tarballLimits" | "now">,
  request: { name: string; version: string; tarball: Buffer; publisher: Actor },
): Promise<NewVersion> {
  const { name, version, tarball } = request;
  let facts: ReturnType<typeof readPackage>;
  try {
    facts = readPackage(await inspectTarball(tarball, ctx.tarballLimits), name, version);
  } catch (error) {
    throw registryErrorFor(error) ?? error;
  }
  const integrity = computeIntegrity(tarball);
  return {
    name,
    version,
    prerelease: semver.prerelease(version) !== null,
    integrity,
    size: tarball.length,
    manifest: facts.manifest,
    capabilities: facts.capabilities,
    effects: facts.effects,
    readme: facts.readme,
    publishedAt: ctx.now().toISOString(),
    signature: ctx.signer.sign(signedMessage(name, version, integrity)),
    keyId: ctx.signer.keyId,
    publisher: request.publisher,
  };
}

/**
 * After a failed commit: the blobs no version row names are removed (each integrity is one
 * name@version's bytes, since the manifest inside names it). In a registry of one process that is
 * always safe: the same bytes published at once here wait on ctx.blobLocks. On a shared store
 * another process may be committing these very bytes, so a blob stays unless its version's row
 * already exists with other bytes (versions are never replaced, so these can never be committed:
 * the loser of a race removes its own); the start-up sweep of a process that starts alone removes
 * the rest (data/sweep.ts).
 */
export async function discardUnnamedBlobs(
  ctx: Pick<RegistryContext, "store" | "blobs">,
  versions: readonly Pick<NewVersion, "name" | "version" | "integrity">[],
): Promise<void> {
  for (const { name, version, integrity } of versions) {
    if (await ctx.store.hasIntegrity(integrity)) continue;
    if (ctx.store.shared && !(await ctx.store.getVersion(name, version))) continue;
    await ctx.blobs.delete(integrity);
  }
}
