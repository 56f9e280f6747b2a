import type { FastifyInstance } from "fastify";
import * as z from "zod";
import { requireAdmin, scopeAllows } from "../access/rights.js";
import { issueToken, parseDuration } from "../access/tokens.js";
import { tokenScopes } from "../db/schema.js";
import { RegistryError } from "../errors.js";
import { principalOf } from "../http/auth.js";
import { routeSchema } from "../http/validation.js";
import type { RouteDeps } from "./deps.js";
import { bearer, ownerName } from "./schemas.js";

const createBody = z.strictObject({
  scope: z.enum(tokenScopes).default("publish"),
  expires: z
    .string()
    .refine(
      (text) => parseDuration(text) !== undefined,
      "expires is a duration such as 30d, 12h or 90m, or never",
    )
    .default("never"),
  owner: ownerName.optional().describe("admin only: make the token for this owner (created if new)"),
  description: z.string().trim().max(200).optional(),
});

const listQuery = z.object({ owner: ownerName.optional().describe("admin only: one owner's tokens") });
const idParams = z.object({ id: z.string().max(64) });

/**
 * POST /v1/tokens (the secret is in this answer only), GET /v1/tokens (no secrets), GET
 * /v1/whoami (the calling token), DELETE /v1/tokens/:id (revoke; effective on the next request).
 * A token makes tokens for its own owner with at most its own scope; an admin token for anyone.
 */
export function tokenRoutes(app: FastifyInstance, { ctx, auth }: RouteDeps): void {
  app.post(
    "/v1/tokens",
    {
      onRequest: auth,
      schema: {
        summary: "Create a token; the secret is returned once",
        tags: ["tokens"],
        security: bearer,
        body: routeSchema(createBody),
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body as z.output<typeof createBody>;
      const owner = body.owner ?? principal.owner;
      if (owner !== principal.owner) requireAdmin(principal);
      if (!scopeAllows(principal.scope, body.scope)) {
        throw new RegistryError(
          "REG_ERR_FORBIDDEN",
          `a ${principal.scope} token cannot make a ${body.scope} token (a token can only make tokens of its own scope or below)`,
        );
      }
      const issued = await issueToken(ctx.store, {
        owner,
        scope: body.scope,
        expiresInMs: parseDuration(body.expires) ?? null,
        description: body.description ?? null,
        now: ctx.now(),
        actor: { owner: principal.owner, tokenId: principal.tokenId },
      });
      reply.header("cache-control", "no-store");
      return reply.code(201).send({ token: issued.token, ...issued.record });
    },
  );

  app.get(
    "/v1/tokens",
    {
      onRequest: auth,
      schema: {
        summary: "List tokens (your own; an admin sees all), without secrets",
        tags: ["tokens"],
        security: bearer,
        querystring: routeSchema(listQuery),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { owner } = request.query as z.output<typeof listQuery>;
      if (owner !== undefined && owner !== principal.owner) requireAdmin(principal);
      const scopeTo = principal.scope === "admin" ? owner : principal.owner;
      return { tokens: await ctx.store.listTokens(scopeTo) };
    },
  );

  // The calling token itself: `hookyard whoami`, and `hookyard logout`, which revokes it by its id.
  app.get(
    "/v1/whoami",
    {
      onRequest: auth,
      schema: {
        summary: "The token this request was made with (its owner, scope and id), without its secret",
        tags: ["tokens"],
        security: bearer,
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const token = await ctx.store.getToken(principal.tokenId);
      // Authentication just read this row; tokens are revoked, never deleted.
      if (!token) throw new RegistryError("REG_ERR_TOKEN_INVALID", "this registry does not know the token");
      return token;
    },
  );

  app.delete(
    "/v1/tokens/:id",
    {
      onRequest: auth,
      schema: {
        summary: "Revoke a token; it fails from the next request on",
        tags: ["tokens"],
        security: bearer,
        params: routeSchema(idParams),
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { id } = request.params as z.output<typeof idParams>;
      const token = await ctx.store.getToken(id);
      // Someone else's token is reported as unknown: ids are not secrets, but ownership is nobody else's business.
      if (!token || (token.owner !== principal.owner && principal.scope !== "admin")) {
        throw new RegistryError(
          "REG_ERR_TOKEN_NOT_FOUND",
          `you have no token ${id} (GET /v1/tokens lists yours)`,
        );
      }
      const revoked = await ctx.store.revokeToken(id, ctx.now().toISOString(), {
        owner: principal.owner,
        tokenId: principal.tokenId,
      });
      return revoked;
    },
  );
}
