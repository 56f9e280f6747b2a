import type { FastifyInstance } from "fastify";
import * as z from "zod";
import { requireAdmin } from "../access/rights.js";
import { principalOf } from "../http/auth.js";
import { routeSchema } from "../http/validation.js";
import type { RouteDeps } from "./deps.js";
import { bearer, pageQuery } from "./schemas.js";

const auditQuery = z.object(pageQuery);

/** GET /v1/keys (public: what clients verify signatures with) and GET /v1/audit (admin). */
export function adminRoutes(app: FastifyInstance, { ctx, auth }: RouteDeps): void {
  app.get(
    "/v1/keys",
    { schema: { summary: "The registry's ed25519 signing keys", tags: ["read"] } },
    async () => ({
      keys: [{ keyId: ctx.signer.keyId, algorithm: "ed25519", publicKey: ctx.signer.publicKeyPem }],
    }),
  );

  app.get(
    "/v1/audit",
    {
      onRequest: auth,
      schema: {
        summary: "The audit log: every write, newest first (admin)",
        tags: ["manage"],
        security: bearer,
        querystring: routeSchema(auditQuery),
      },
    },
    async (request) => {
      requireAdmin(principalOf(request));
      const { limit, offset } = request.query as z.output<typeof auditQuery>;
      return { entries: await ctx.store.listAudit(limit, offset) };
    },
  );
}
