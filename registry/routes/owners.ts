import type { FastifyInstance } from "fastify";
import * as z from "zod";
import { checkPackageName, scopeOf, scopePattern } from "../../package/names.js";
import { authorizeManage, authorizeScope } from "../access/rights.js";
import { RegistryError } from "../errors.js";
import { principalOf } from "../http/auth.js";
import { routeSchema } from "../http/validation.js";
import type { RouteDeps } from "./deps.js";
import { bearer, ownerName, packageParams } from "./schemas.js";

const ownerChange = z
  .strictObject({
    add: z.array(ownerName).max(50).default([]),
    remove: z.array(ownerName).max(50).default([]),
  })
  .refine(
    (change) => change.add.length + change.remove.length > 0,
    "name at least one owner to add or remove",
  );

const scopeParams = z.object({
  scope: z.string().regex(scopePattern, "a scope is @ and a name, such as @acme"),
});

/**
 * Owners of a package (GET/PUT /v1/packages/:name/owners) and of a scope
 * (GET/PUT /v1/scopes/:scope/owners). PUT takes `{ add: [...], remove: [...] }`.
 */
export function ownerRoutes(app: FastifyInstance, { ctx, auth }: RouteDeps): void {
  app.get(
    "/v1/packages/:name/owners",
    {
      schema: {
        summary: "Owners of a package, and of its scope for a scoped name",
        tags: ["owners"],
        params: routeSchema(packageParams),
      },
    },
    async (request) => {
      const { name } = request.params as z.output<typeof packageParams>;
      const owners = await ctx.store.packageOwners(checkPackageName(name));
      if (!owners) throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
      const scope = scopeOf(name);
      return {
        name,
        owners,
        ...(scope ? { scope: { name: scope, owners: await ctx.store.scopeOwners(scope) } } : {}),
      };
    },
  );

  app.put(
    "/v1/packages/:name/owners",
    {
      onRequest: auth,
      schema: {
        summary: "Add or remove owners of a package; the last owner cannot be removed",
        tags: ["owners"],
        security: bearer,
        params: routeSchema(packageParams),
        body: routeSchema(ownerChange),
      },
    },
    async (request) => {
      const { name } = request.params as z.output<typeof packageParams>;
      const principal = principalOf(request);
      const facts = await ctx.store.rightsFacts(checkPackageName(name));
      if (!facts.packageOwners)
        throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `there is no package ${name}`);
      authorizeManage(principal, facts);
      const owners = await ctx.store.changeOwners(
        { package: name },
        request.body as z.output<typeof ownerChange>,
        ctx.now().toISOString(),
        { owner: principal.owner, tokenId: principal.tokenId },
      );
      return { name, owners };
    },
  );

  app.get(
    "/v1/scopes/:scope/owners",
    {
      schema: {
        summary: "Owners of a scope (who may publish new packages in it)",
        tags: ["owners"],
        params: routeSchema(scopeParams),
      },
    },
    async (request) => {
      const { scope } = request.params as z.output<typeof scopeParams>;
      return { scope, owners: await ctx.store.scopeOwners(scope) };
    },
  );

  app.put(
    "/v1/scopes/:scope/owners",
    {
      onRequest: auth,
      schema: {
        summary: "Add or remove owners of a scope; the last owner cannot be removed",
        tags: ["owners"],
        security: bearer,
        params: routeSchema(scopeParams),
        body: routeSchema(ownerChange),
      },
    },
    async (request) => {
      const { scope } = request.params as z.output<typeof scopeParams>;
      const principal = principalOf(request);
      authorizeScope(principal, scope, await ctx.store.scopeOwners(scope));
      const owners = await ctx.store.changeOwners(
        { scope },
        request.body as z.output<typeof ownerChange>,
        ctx.now().toISOString(),
        { owner: principal.owner, tokenId: principal.tokenId },
      );
      return { scope, owners };
    },
  );
}
