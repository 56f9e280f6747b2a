import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { z } from "zod";
import type { RegistryContext } from "../context.js";
import { RegistryError } from "../errors.js";
import { routeSchema } from "../http/validation.js";
import { computeIntegrity } from "../integrity.js";
import { checkPackageName, checkVersion } from "../names.js";
import { packageDocument } from "../package-document.js";
import type { VersionRecord } from "../store.js";
import type { RouteDeps } from "./deps.js";
import { packageParams, versionParams } from "./schemas.js";

/** GET /v1/packages/:name and GET /v1/packages/:name/:version/tarball: public reads. */
export function packageRoutes(app: FastifyInstance, { ctx }: RouteDeps): void {
  app.get(
    "/v1/packages/:name",
    {
      schema: {
        summary: "A package's metadata: every version with integrity, capabilities, signature; dist-tags",
        tags: ["read"],
        params: routeSchema(packageParams),
      },
    },
    async (request) => {
      const { name } = request.params as z.output<typeof packageParams>;
      const pkg = await ctx.store.findPackage(checkPackageName(name));
      if (!pkg) throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
      return packageDocument(pkg, await ctx.store.listVersions(pkg.id));
    },
  );

  app.get(
    "/v1/packages/:name/:version/tarball",
    {
      schema: {
        summary: "A version's tarball; immutable; ETag is its integrity",
        tags: ["read"],
        params: routeSchema(versionParams),
      },
    },
    async (request, reply) => {
      const { name, version } = request.params as z.output<typeof versionParams>;
      const found = await findVersion(ctx, checkPackageName(name), checkVersion(version));
      const etag = `"${found.integrity}"`;
      // Set only on success: an error cached as immutable would outlive its repair.
      const cacheable = () =>
        reply.header("etag", etag).header("cache-control", "public, max-age=31536000, immutable");
      if (matchesEtag(request.headers["if-none-match"], etag)) return cacheable().code(304).send();
      const bytes = await verifiedBlob(ctx, found, request.log);
      if (request.method === "GET") ctx.downloads.record(found.id);
      return cacheable().type("application/octet-stream").send(bytes);
    },
  );
}

async function findVersion(ctx: RegistryContext, name: string, version: string): Promise<VersionRecord> {
  const found = await ctx.store.getVersion(name, version);
  if (found) return found;
  throw (await ctx.store.findPackage(name))
    ? new RegistryError("REG_ERR_VERSION_NOT_FOUND", `${name} has no version ${version}`)
    : new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
}

/** The stored bytes, checked against the integrity the version was published with. */
async function verifiedBlob(
  ctx: RegistryContext,
  found: VersionRecord,
  log: FastifyBaseLogger,
): Promise<Buffer> {
  const subject = `${found.name}@${found.version}`;
  const bytes = await ctx.blobs.get(found.integrity);
  if (!bytes) {
    log.error({ subject, integrity: found.integrity }, "tarball blob is missing from storage");
    throw new RegistryError(
      "REG_ERR_BLOB_MISSING",
      `the registry has lost the bytes of ${subject}; its operator must restore them from a backup`,
    );
  }
  const actual = computeIntegrity(bytes);
  if (actual !== found.integrity) {
    log.error({ subject, expected: found.integrity, actual }, "tarball blob does not match its integrity");
    throw new RegistryError(
      "REG_ERR_BLOB_CORRUPT",
      `the stored bytes of ${subject} no longer match its integrity, so they are not served; the registry's operator must restore them from a backup`,
    );
  }
  return bytes;
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}
