import type { onRequestAsyncHookHandler } from "fastify";
import type { RegistryContext } from "../context.js";
import type { RateWindow } from "../http/auth.js";

/** What every route module is given. */
export interface RouteDeps {
  ctx: RegistryContext;
  /** onRequest hook: authenticates the bearer token (principalOf(request) then gives the caller). */
  auth: onRequestAsyncHookHandler;
  publishRate: RateWindow;
}
