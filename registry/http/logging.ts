import type { FastifyRequest, FastifyServerOptions } from "fastify";

export interface RegistryLoggerOptions {
  /** pino level; default "info". */
  level?: string;
  /** Where JSON log lines go; default stdout. */
  stream?: NodeJS.WritableStream;
}

/**
 * pino options for the registry: one JSON line per event, each carrying the request id, with the
 * request's headers logged but credentials censored wherever they appear.
 */
export function loggerOptions(
  options: RegistryLoggerOptions | false | undefined,
): FastifyServerOptions["logger"] {
  if (!options) return false;
  return {
    level: options.level ?? "info",
    ...(options.stream ? { stream: options.stream } : {}),
    redact: {
      paths: ["req.headers.authorization", "req.headers.cookie", "req.headers['proxy-authorization']"],
      censor: "[redacted]",
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url,
        remoteAddress: request.ip,
        headers: request.headers,
      }),
    },
  };
}
