import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";

/** The OpenAPI document (from the route schemas) at /docs/json, with a browsable UI at /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "hookyard registry",
        description:
          "Publish, find and download hookyard hook packages. Errors are `{ error: { code, message } }`.",
        version: "1",
      },
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: true });
}
