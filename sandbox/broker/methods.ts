import * as z from "zod";
import { grantPathSchema } from "../capabilities.js";

export const brokerMethods = [
  "fs.readFile",
  "fs.writeFile",
  "fs.readdir",
  "fs.stat",
  "net.fetch",
  "process.exec",
  "env.get",
] as const;
export type BrokerMethod = (typeof brokerMethods)[number];

export function isBrokerMethod(method: string): method is BrokerMethod {
  return (brokerMethods as readonly string[]).includes(method);
}

/*
 * The guest's arguments arrive as a JSON array. An argument the hook left out may arrive missing
 * or as null (JSON has no undefined), so optional ones accept both.
 */

/** Same rules as a grant's path: normalised, no NUL, never climbing out of the workspace with `..`. */
const path = grantPathSchema;

const httpToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, space and tab, and bytes above 0x7f: no CR, LF or NUL (header injection). */
const headerValue = /^[\t\x20-\x7e\u0080-\u00ff]*$/;
/** Headers the broker sets itself from the URL and body; a hook setting them could smuggle requests. */
const reservedHeaders = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-connection",
]);

const fetchInit = z.strictObject({
  method: z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]))
    .nullish(),
  headers: z
    .record(
      z
        .string()
        .regex(httpToken, "a header name is an HTTP token")
        .refine((name) => !reservedHeaders.has(name.toLowerCase()), {
          error: (issue) => `the broker sets ${String(issue.input)} itself`,
        }),
      z.string().max(8192).regex(headerValue, "a header value must not contain CR, LF or NUL"),
    )
    .refine((headers) => Object.keys(headers).length <= 100, "at most 100 headers")
    .nullish(),
  body: z.string().nullish(),
  /** Less than the broker's own cap (fetchTimeoutMs) if the hook wants to give up sooner. */
  timeoutMs: z.number().int().positive().nullish(),
});

const execOptions = z.strictObject({
  cwd: path.nullish(),
  input: z.string().nullish(),
  timeoutMs: z.number().int().positive().nullish(),
});

const noNul = (what: string) =>
  z.string().refine((s) => !s.includes("\0"), `${what} must not contain a NUL byte`);

export const argsSchemas = {
  "fs.readFile": z.tuple([path]),
  "fs.writeFile": z.tuple([path, z.string()]),
  "fs.readdir": z.tuple([path]),
  "fs.stat": z.tuple([path]),
  "net.fetch": z.tuple([z.string().max(8192), fetchInit.nullish()]),
  "process.exec": z.tuple([
    noNul("a command").max(4096),
    z.array(noNul("an argument")).max(4096).nullish(),
    execOptions.nullish(),
  ]),
  "env.get": z.tuple([z.string().max(256)]),
} satisfies Record<BrokerMethod, z.ZodType>;

export type ArgsOf<M extends BrokerMethod> = z.output<(typeof argsSchemas)[M]>;
export type FetchInit = z.output<typeof fetchInit>;
export type ExecOptions = z.output<typeof execOptions>;
