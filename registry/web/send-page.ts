import type { FastifyReply, FastifyRequest } from "fastify";
import { matchesEtag, strongEtag } from "../http/etag.js";
import type { SafeHtml } from "./html.js";

/**
 * Pages run no inline script or style and load nothing from other hosts: everything they use is
 * under /static on this origin. Stricter than the JSON API's helmet policy, which this replaces on
 * HTML answers only.
 */
export const pageContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Sends a rendered page. Pages change with every publish and download count, so caches must ask
 * again before each use (no-cache); a 200 carries a strong ETag of its bytes and answers a
 * matching If-None-Match with 304.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, status: number, page: SafeHtml) {
  reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", pageContentSecurityPolicy)
    .header("cache-control", "no-cache");
  if (status !== 200) return reply.send(page.markup);
  const etag = strongEtag(page.markup);
  reply.header("etag", etag);
  if (matchesEtag(request.headers["if-none-match"], etag)) return reply.code(304).send();
  return reply.send(page.markup);
}
