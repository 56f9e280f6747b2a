import type { FastifyInstance } from "fastify";
import * as z from "zod";
import { checkPackageName, checkVersion } from "../../package/names.js";
import { authorizeManage } from "../access/rights.js";
import { versionDocument } from "../documents/package-document.js";
import { principalOf } from "../http/auth.js";
import { routeSchema } from "../http/validation.js";
import type { Actor } from "../store.js";
import type { RouteDeps } from "./deps.js";
import { bearer, versionParams } from "./schemas.js";

const undo = z.strictObject({ undo: z.literal(true) });
const yankBody = z.union([z.strictObject({ reason: z.string().trim().min(1).max(1000) }), undo]);
const deprecateBody = z.union([z.strictObject({ message: z.string().trim().min(1).max(1000) }), undo]);

/**
 * POST /v1/packages/:name/:version/yank and …/deprecate. Both change how a version is shown and
 * resolved, never its bytes or its row; `{ "undo": true }` takes it back.
 */
export function versionRoutes(app: FastifyInstance, { ctx, auth }: RouteDeps): void {
  const target = async (params: unknown, principal: ReturnType<typeof principalOf>) => {
    const { name, version } = params as z.output<typeof versionParams>;
    checkPackageName(name);
    checkVersion(version);
    authorizeManage(principal, await ctx.store.rightsFacts(name));
    const actor: Actor = { owner: principal.owner, tokenId: principal.tokenId };
    return { name, version, actor };
  };

  app.post(
    "/v1/packages/:name/:version/yank",
    {
      onRequest: auth,
      schema: {
        summary: 'Yank a version with a reason ({ "reason": "…" }) or unyank it ({ "undo": true })',
        tags: ["manage"],
        security: bearer,
        params: routeSchema(versionParams),
        body: routeSchema(yankBody),
      },
    },
    async (request) => {
      const { name, version, actor } = await target(request.params, principalOf(request));
      const body = request.body as z.output<typeof yankBody>;
      const reason = "reason" in body ? body.reason : null;
      const record = await ctx.store.setYank(name, version, reason, ctx.now().toISOString(), actor);
      return { name, ...versionDocument(record) };
    },
  );

  app.post(
    "/v1/packages/:name/:version/deprecate",
    {
      onRequest: auth,
      schema: {
        summary: 'Deprecate a version with a message ({ "message": "…" }) or take it back ({ "undo": true })',
        tags: ["manage"],
        security: bearer,
        params: routeSchema(versionParams),
        body: routeSchema(deprecateBody),
      },
    },
    async (request) => {
      const { name, version, actor } = await target(request.params, principalOf(request));
      const body = request.body as z.output<typeof deprecateBody>;
      const message = "message" in body ? body.message : null;
      const record = await ctx.store.setDeprecation(name, version, message, ctx.now().toISOString(), actor);
      return { name, ...versionDocument(record) };
    },
  );
}
