import type { FastifyInstance } from "fastify";
import * as z from "zod";
import { ftsQuery } from "../db/search-query.js";
import { routeSchema } from "../http/validation.js";
import type { RouteDeps } from "./deps.js";
import { pageQuery } from "./schemas.js";

const searchQuery = z.object({
  q: z.string().max(256).default("").describe("words to find in names, descriptions and keywords"),
  ...pageQuery,
});

/**
 * GET /v1/search: full text over name, description and keywords, best match first, then most
 * downloaded. A read only: it ranks by the download counts written so far (DownloadCounter writes
 * them once per flush interval) and never writes them itself.
 */
export function searchRoute(app: FastifyInstance, { ctx }: RouteDeps): void {
  app.get(
    "/v1/search",
    {
      schema: {
        summary: "Search packages by name, description and keywords",
        tags: ["read"],
        querystring: routeSchema(searchQuery),
      },
    },
    async (request) => {
      const { q, limit, offset } = request.query as z.output<typeof searchQuery>;
      const page = await ctx.store.search(ftsQuery(q), limit, offset);
      return { ...page, limit, offset };
    },
  );
}
