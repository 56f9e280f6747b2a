import type { FastifyInstance } from "fastify";
import type * as z from "zod";
import { versionDocument } from "../documents/package-document.js";
import { RegistryError } from "../errors.js";
import { principalOf } from "../http/auth.js";
import type { BodyLimitConfig } from "../http/errors.js";
import { routeSchema } from "../http/validation.js";
import { publishVersion } from "../publish/publish.js";
import type { RouteDeps } from "./deps.js";
import { bearer, versionParams } from "./schemas.js";

/** The content types a tarball may be sent as. */
export const tarballContentTypes = ["application/octet-stream", "application/gzip", "application/x-gzip"];

/** PUT /v1/packages/:name/:version: the body is the .tgz. */
export function publishRoute(app: FastifyInstance, { ctx, auth, publishRate }: RouteDeps): void {
  const config: BodyLimitConfig = { bodyTooLargeCode: "REG_ERR_TARBALL_GZIP_TOO_LARGE" };
  app.put(
    "/v1/packages/:name/:version",
    {
      bodyLimit: ctx.tarballLimits.maxGzipBytes,
      onRequest: auth,
      config: {
        ...config,
        rateLimit: {
          max: publishRate.max,
          timeWindow: publishRate.timeWindowMs,
          keyGenerator: (request) => `publish:${principalOf(request).tokenId}`,
        },
      },
      schema: {
        summary: "Publish a version: the body is the tarball (application/octet-stream)",
        tags: ["publish"],
        security: bearer,
        params: routeSchema(versionParams),
      },
    },
    async (request, reply) => {
      const { name, version } = request.params as z.output<typeof versionParams>;
      if (!Buffer.isBuffer(request.body)) {
        throw new RegistryError(
          "REG_ERR_UNSUPPORTED_MEDIA_TYPE",
          `send the .tgz as the request body with content-type ${tarballContentTypes[0]}`,
        );
      }
      const record = await publishVersion(ctx, {
        name,
        version,
        tarball: request.body,
        principal: principalOf(request),
      });
      request.log.info({ name, version, integrity: record.integrity }, "published");
      return reply.code(201).send({ name, ...versionDocument(record) });
    },
  );
}
