import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type * as z from "zod";
import { checkPackageName, checkVersion } from "../../package/names.js";
import type { RegistryContext } from "../context.js";
import { RegistryError } from "../errors.js";
import { matchesEtag } from "../http/etag.js";
import { routeSchema } from "../http/validation.js";
import type { TarballRecord } from "../store.js";
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
    async (request, reply) => {
      const { name } = request.params as z.output<typeof packageParams>;
      const document = await ctx.documents.get(checkPackageName(name));
      if (!document) throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
      // Yanks and publishes change it: caches may keep it, but must ask again before each use.
      reply.header("etag", document.etag).header("cache-control", "no-cache");
      if (matchesEtag(request.headers["if-none-match"], document.etag)) return reply.code(304).send();
      return reply.type("application/json; charset=utf-8").send(document.body);
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
      const found = await findTarball(ctx, checkPackageName(name), checkVersion(version));
      const etag = `"${found.integrity}"`;
      // Set only on success: an error cached as immutable would outlive its repair.
      const cacheable = () =>
        reply.header("etag", etag).header("cache-control", "public, max-age=31536000, immutable");
      if (matchesEtag(request.headers["if-none-match"], etag)) return cacheable().code(304).send();
      const bytes = await verifiedBytes(ctx, `${name}@${version}`, found, request.log);
      if (request.method === "GET") ctx.downloads.record(found.versionId);
      return cacheable().type("application/octet-stream").send(bytes);
    },
  );
}

async function findTarball(ctx: RegistryContext, name: string, version: string): Promise<TarballRecord> {
  const found = await ctx.store.findTarball(name, version);
  if (found) return found;
  throw (await ctx.store.findPackage(name))
    ? new RegistryError("REG_ERR_VERSION_NOT_FOUND", `${name} has no version ${version}`)
    : new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
}

/** The stored bytes, known to match the integrity the version was published with. */
async function verifiedBytes(
  ctx: RegistryContext,
  subject: string,
  found: TarballRecord,
  log: FastifyBaseLogger,
): Promise<Buffer> {
  const blob = await ctx.tarballs.get(found.integrity);
  if (blob.state === "missing") {
    log.error({ subject, integrity: found.integrity }, "tarball blob is missing from storage");
    throw new RegistryError(
      "REG_ERR_BLOB_MISSING",
      `the registry has lost the bytes of ${subject}; its operator must restore them from a backup`,
    );
  }
  if (blob.state === "corrupt") {
    log.error(
      { subject, expected: found.integrity, actual: blob.actual },
      "tarball blob does not match its integrity",
    );
    throw new RegistryError(
      "REG_ERR_BLOB_CORRUPT",
      `the stored bytes of ${subject} no longer match its integrity, so they are not served; the registry's operator must restore them from a backup`,
    );
  }
  return blob.bytes;
}
