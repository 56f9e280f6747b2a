import type { FastifyInstance } from "fastify";
import semver from "semver";
import * as z from "zod";
import { packageNameSchema } from "../../package/manifest.js";
import { requireAdmin } from "../access/rights.js";
import { advisorySeverities } from "../db/schema.js";
import { principalOf } from "../http/auth.js";
import { routeSchema } from "../http/validation.js";
import type { AdvisoryRecord } from "../store.js";
import type { RouteDeps } from "./deps.js";
import { bearer } from "./schemas.js";

const createBody = z.strictObject({
  package: packageNameSchema,
  range: z
    .string()
    .max(256)
    .refine(
      (range) => semver.validRange(range) !== null,
      "range must be a semver range, such as <1.2.3 or >=2 <2.4.1",
    ),
  severity: z.enum(advisorySeverities),
  text: z.string().trim().min(1).max(4000),
});

const listQuery = z.object({
  names: z
    .string()
    .max(64 * 1024)
    .transform((text) => [...new Set(text.split(",").map((n) => n.trim()))].filter((n) => n !== ""))
    .refine((names) => names.length <= 1000, "ask for at most 1,000 names at once")
    .describe("comma-separated package names"),
});

/** POST /v1/advisories (admin) and GET /v1/advisories?names=a,b (for `hookyard audit`). */
export function advisoryRoutes(app: FastifyInstance, { ctx, auth }: RouteDeps): void {
  app.post(
    "/v1/advisories",
    {
      onRequest: auth,
      schema: {
        summary: "Publish an advisory against a range of a package's versions (admin)",
        tags: ["advisories"],
        security: bearer,
        body: routeSchema(createBody),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      requireAdmin(principal);
      const body = request.body as z.output<typeof createBody>;
      const advisory = await ctx.store.createAdvisory(
        {
          packageName: body.package,
          range: body.range,
          severity: body.severity,
          text: body.text,
          createdAt: ctx.now().toISOString(),
        },
        { owner: principal.owner, tokenId: principal.tokenId },
      );
      return reply.code(201).send(advisoryDocument(advisory));
    },
  );

  app.get(
    "/v1/advisories",
    {
      schema: {
        summary: "Advisories for the named packages: every name asked for is a key",
        tags: ["advisories"],
        querystring: routeSchema(listQuery),
      },
    },
    async (request) => {
      const { names } = request.query as z.output<typeof listQuery>;
      const found = await ctx.store.advisoriesFor(names);
      const advisories: Record<string, ReturnType<typeof advisoryDocument>[]> = {};
      for (const name of names) advisories[name] = [];
      for (const advisory of found) advisories[advisory.packageName]?.push(advisoryDocument(advisory));
      return { advisories };
    },
  );
}

function advisoryDocument(advisory: AdvisoryRecord) {
  return {
    id: advisory.id,
    package: advisory.packageName,
    range: advisory.range,
    severity: advisory.severity,
    text: advisory.text,
    createdAt: advisory.createdAt,
  };
}
