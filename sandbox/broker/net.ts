import type { IncomingHttpHeaders } from "node:http";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { Check } from "./check.js";
import { BrokerError } from "./errors.js";
import type { BrokerLimits } from "./limits.js";
import type { FetchInit } from "./methods.js";
import { authoriseUrl, type Destination, type NetScope } from "./net-target.js";

export interface FetchResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Sent only to the origin they were meant for. */
const credentialHeaders = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * fetch, with every hop checked like a new request: the broker follows redirects itself (at
 * most maxRedirects), drops credentials when the origin changes, caps the body and the time of
 * the whole exchange.
 */
export async function fetchUrl(
  scope: NetScope,
  limits: BrokerLimits,
  check: Check,
  urlText: string,
  init: FetchInit | null | undefined,
): Promise<FetchResult> {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    throw new BrokerError("BROKER_ERR_BAD_ARGS", `"${urlText.slice(0, 200)}" is not a URL`);
  }
  let method = init?.method ?? "GET";
  let body = init?.body ?? undefined;
  let headers: Record<string, string> = { ...init?.headers };
  if (body !== undefined && (method === "GET" || method === "HEAD")) {
    throw new BrokerError("BROKER_ERR_BAD_ARGS", `a ${method} request has no body`);
  }
  if (body !== undefined && Buffer.byteLength(body) > limits.fetchBodyBytes) {
    throw new BrokerError(
      "BROKER_ERR_TOO_LARGE",
      `the request body is over the ${limits.fetchBodyBytes}-byte limit`,
    );
  }

  const timeoutMs = Math.min(init?.timeoutMs ?? Number.POSITIVE_INFINITY, limits.fetchTimeoutMs);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const destination = await beforeDeadline(authoriseUrl(scope, url, method, check), deadline.signal);
      const answer = await send(destination, method, headers, body, limits.fetchBodyBytes, deadline.signal);
      if (answer.location === undefined) return answer.result;
      if (redirects >= limits.maxRedirects) {
        throw new BrokerError(
          "BROKER_ERR_TOO_MANY_REDIRECTS",
          `${url.origin} redirected more than ${limits.maxRedirects} times`,
        );
      }
      let next: URL;
      try {
        next = new URL(answer.location, url);
      } catch {
        throw new BrokerError("BROKER_ERR_NET", `${url.origin} redirected to something that is not a URL`);
      }
      // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
      if (
        (answer.result.status === 303 && method !== "HEAD") ||
        (answer.result.status <= 302 && method === "POST")
      ) {
        method = "GET";
        body = undefined;
        headers = withoutHeaders(headers, (name) => name.startsWith("content-"));
      }
      if (next.origin !== url.origin)
        headers = withoutHeaders(headers, (name) => credentialHeaders.has(name));
      url = next;
    }
  } catch (error) {
    if (deadline.signal.aborted) {
      throw new BrokerError("BROKER_ERR_TIMEOUT", `fetch of ${url.origin} took longer than ${timeoutMs} ms`);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function withoutHeaders(headers: Record<string, string>, drop: (lowerName: string) => boolean) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop(name.toLowerCase())));
}

function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Hands the connection the address that was checked, whatever DNS says by now. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

interface Answer {
  result: FetchResult;
  /** Set for a redirect; its body is not read. */
  location?: string;
}

function send(
  to: Destination,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  cap: number,
  signal: AbortSignal,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const request = (to.url.protocol === "https:" ? httpsRequest : httpRequest)({
      host: to.host,
      port: to.port,
      path: `${to.url.pathname}${to.url.search}`,
      method,
      headers:
        body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(to.address, to.family),
      // A fresh connection per checked hop: a pooled socket could lead to an address checked for another request.
      agent: false,
      signal,
    });
    request.on("error", (error: NodeJS.ErrnoException) => reject(netFailure(error, to)));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location !== undefined) {
        response.destroy();
        resolve({ result: { status, headers: plainHeaders(response.headers), body: "" }, location });
        return;
      }
      const tooLarge = () => {
        request.destroy();
        reject(
          new BrokerError(
            "BROKER_ERR_TOO_LARGE",
            `the response of ${to.url.origin} is over the ${cap}-byte limit`,
          ),
        );
      };
      if (Number(response.headers["content-length"]) > cap) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        // Stop reading at the cap: a body is never held whole when it is too large.
        if (size > cap) return tooLarge();
        chunks.push(chunk);
      });
      response.on("error", (error: NodeJS.ErrnoException) => reject(netFailure(error, to)));
      response.on("end", () =>
        resolve({
          result: {
            status,
            headers: plainHeaders(response.headers),
            body: Buffer.concat(chunks, size).toString("utf8"),
          },
        }),
      );
    });
    request.end(body);
  });
}

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : value]],
    ),
  );
}

/** Node's messages carry addresses and stacks; the hook gets the origin and the error's code. */
function netFailure(error: NodeJS.ErrnoException, to: Destination): BrokerError {
  if (error.name === "AbortError") return new BrokerError("BROKER_ERR_TIMEOUT");
  const why = error.code ?? "the connection failed";
  return new BrokerError("BROKER_ERR_NET", `fetch of ${to.url.origin} failed: ${why}`);
}
