import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ErrorBody, RegistryError, type RegistryErrorCode, registryErrorFor } from "../errors.js";
import { RequestInvalid } from "./validation.js";

/** Fastify's own failures, as registry errors with stable codes. */
const fastifyCodes: Record<string, RegistryErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: "REG_ERR_BAD_JSON",
  FST_ERR_CTP_EMPTY_JSON_BODY: "REG_ERR_BAD_JSON",
  FST_ERR_CTP_BODY_TOO_LARGE: "REG_ERR_BODY_TOO_LARGE",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "REG_ERR_UNSUPPORTED_MEDIA_TYPE",
};

/** Route config: the code a too-large body gets on this route instead of REG_ERR_BODY_TOO_LARGE. */
export interface BodyLimitConfig {
  bodyTooLargeCode?: RegistryErrorCode;
}

export interface ErrorHandlerOptions {
  /** Answers a browser that asked for a page outside the API that does not exist. */
  notFoundPage?: (request: FastifyRequest, reply: FastifyReply, message: string) => FastifyReply;
}

/** A browser navigating asks for HTML first; API clients ask for JSON or anything. */
function wantsHtml(request: FastifyRequest): boolean {
  return /^\s*text\/html/i.test(request.headers.accept ?? "");
}

/**
 * Every response that is not a success is `{ error: { code, message } }` with a REG_ERR_* code:
 * thrown RegistryErrors, fastify's parser and validation failures, unknown routes (but for a
 * browser's request outside /v1/, which gets options.notFoundPage), and anything unexpected
 * (logged with its stack, answered without it).
 */
export function installErrorHandlers(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    const error = asRegistryError(thrown, request);
    if (error.statusCode >= 500) request.log.error({ err: thrown, code: error.code }, error.message);
    else request.log.info({ code: error.code }, error.message);
    return sendError(reply, error);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    if (options.notFoundPage && !path.startsWith("/v1/") && wantsHtml(request)) {
      return options.notFoundPage(request, reply, `There is no page ${path} here.`);
    }
    return sendError(
      reply,
      new RegistryError(
        "REG_ERR_NOT_FOUND",
        `there is no route ${request.method} ${path} (see /docs for the API)`,
      ),
    );
  });
}

export function sendError(reply: FastifyReply, error: RegistryError): FastifyReply {
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  return reply.code(error.statusCode).type("application/json; charset=utf-8").send(body);
}

function asRegistryError(thrown: FastifyError, request: FastifyRequest): RegistryError {
  if (thrown instanceof RegistryError) return thrown;
  const refused = registryErrorFor(thrown);
  if (refused) return refused;
  if (thrown instanceof RequestInvalid) {
    return new RegistryError("REG_ERR_VALIDATION", `the request is invalid: ${thrown.message}`);
  }
  const mapped = fastifyCodes[thrown.code];
  if (mapped === "REG_ERR_BODY_TOO_LARGE") {
    const routeCode = (request.routeOptions.config as BodyLimitConfig).bodyTooLargeCode;
    return new RegistryError(routeCode ?? mapped, `${thrown.message} (${bodyLimitHint(request)})`);
  }
  if (mapped) return new RegistryError(mapped, thrown.message);
  const status = thrown.statusCode ?? 500;
  if (status >= 400 && status < 500) return new RegistryError("REG_ERR_BAD_REQUEST", thrown.message);
  return new RegistryError(
    "REG_ERR_INTERNAL",
    `the registry failed unexpectedly (request ${request.id}; the server log has the details)`,
  );
}

function bodyLimitHint(request: FastifyRequest): string {
  return `the limit is ${request.routeOptions.bodyLimit} bytes`;
}
