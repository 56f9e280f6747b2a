import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { authenticate } from "../access/authenticate.js";
import type { Principal } from "../access/rights.js";
import type { RegistryContext } from "../context.js";
import { RegistryError } from "../errors.js";

export interface RateWindow {
  /** Requests allowed per window. */
  max: number;
  timeWindowMs: number;
}

const principals = new WeakMap<FastifyRequest, Principal>();

/** The caller of a route that has the bearer hook; throws if the route has none (a bug). */
export function principalOf(request: FastifyRequest): Principal {
  const principal = principals.get(request);
  if (!principal)
    throw new Error(`route ${request.routeOptions.url} reads the principal without authenticating`);
  return principal;
}

/**
 * An onRequest hook that authenticates the bearer token before the body is read. Failed attempts
 * are counted per client address: past `failedAuth.max` in a window, every further attempt from
 * there is refused with REG_ERR_RATE_LIMITED without looking at the token.
 */
export function bearerAuth(app: FastifyInstance, ctx: RegistryContext, failedAuth: RateWindow) {
  const failures = app.createRateLimit({
    max: failedAuth.max,
    timeWindow: failedAuth.timeWindowMs,
    keyGenerator: (request) => `auth-failure:${request.ip}`,
  });
  const hook: onRequestAsyncHookHandler = async (request, reply) => {
    const state = await failures(request, { increment: false });
    if (!state.isAllowed && state.remaining === 0) {
      reply.header("retry-after", state.ttlInSeconds);
      throw new RegistryError(
        "REG_ERR_RATE_LIMITED",
        `too many failed authentications from this address: try again in ${state.ttlInSeconds} s`,
      );
    }
    try {
      principals.set(request, await authenticate(ctx.store, request.headers.authorization, ctx.now()));
    } catch (error) {
      if (error instanceof RegistryError) await failures(request);
      throw error;
    }
  };
  return hook;
}
