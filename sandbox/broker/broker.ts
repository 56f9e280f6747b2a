import { realpathSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type * as z from "zod";
import type { Grant } from "../capabilities.js";
import type { AuditSink } from "./audit.js";
import { Check } from "./check.js";
import { getEnv } from "./env.js";
import { BrokerError, CapabilityDenied } from "./errors.js";
import { fsMethods } from "./fs.js";
import { type BrokerLimits, defaultBrokerLimits } from "./limits.js";
import { type ArgsOf, argsSchemas, type BrokerMethod, brokerMethods, isBrokerMethod } from "./methods.js";
import { fetchUrl } from "./net.js";
import { auditUrl, netScope } from "./net-target.js";
import { fsScope } from "./paths.js";
import { exec, refuseWritableCommands, resolveCommands } from "./process.js";

export interface BrokerOptions {
  /** The hook's name, in audit records and messages. */
  hook: string;
  /** Absolute workspace root; relative paths resolve from here. */
  root: string;
  grants: readonly Grant[];
  audit: AuditSink;
  /** Name → addresses, consulted before DNS. Plain data: the broker may live in a forked process. */
  hosts?: Readonly<Record<string, readonly string[]>>;
  /** Where env.get reads, and where PATH (to find commands), HOME and LANG come from. Default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  limits?: Partial<BrokerLimits>;
}

export interface Broker {
  /** The single entry point: args is the JSON array the guest passed (untrusted); returns plain JSON data. */
  call(method: string, args: unknown): Promise<unknown>;
}

type Handlers = { [M in BrokerMethod]: (check: Check, args: ArgsOf<M>) => Promise<unknown> };

/**
 * The one place a sandboxed hook reaches the host: every call is checked against the grants,
 * deny by default, and each decision is written to the audit sink. Throws BrokerError
 * (BROKER_ERR_OPTIONS) for options that cannot work, such as write access to a granted command.
 */
export function createBroker(options: BrokerOptions): Broker {
  const rootReal = workspaceRoot(options.root);
  const limits: BrokerLimits = { ...defaultBrokerLimits, ...options.limits };
  const hostEnv = options.env ?? process.env;
  const commands = resolveCommands(options.grants, rootReal, hostEnv.PATH);
  refuseWritableCommands(commands, options.grants, rootReal);
  const fs = fsMethods(fsScope(rootReal, options.grants), limits);
  const net = netScope(options.grants, options.hosts);
  const execContext = { rootReal, commands, limits, hostEnv };

  const handlers: Handlers = {
    "fs.readFile": (check, [path]) => fs.readFile(check, path),
    "fs.writeFile": (check, [path, data]) => fs.writeFile(check, path, data),
    "fs.readdir": (check, [path]) => fs.readdir(check, path),
    "fs.stat": (check, [path]) => fs.stat(check, path),
    "net.fetch": (check, [url, init]) => fetchUrl(net, limits, check, url, init),
    "process.exec": (check, [command, args, opts]) => exec(execContext, check, command, args ?? [], opts),
    "env.get": async (check, [name]) => getEnv(options.grants, hostEnv, check, name),
  };

  return {
    async call(method, args) {
      const check = new Check(options.audit, options.hook, String(method));
      try {
        if (!isBrokerMethod(method)) {
          throw new BrokerError(
            "BROKER_ERR_UNKNOWN_METHOD",
            `${String(method).slice(0, 100)} is not a host API method (${brokerMethods.join(", ")})`,
          );
        }
        const parsed = argsSchemas[method].safeParse(args);
        if (!parsed.success) {
          throw new BrokerError("BROKER_ERR_BAD_ARGS", `${method}: ${describeIssues(parsed.error)}`);
        }
        const handler = handlers[method] as (check: Check, args: unknown) => Promise<unknown>;
        return await handler(check, parsed.data);
      } catch (error) {
        if (!check.recorded) check.record(auditTarget(method, args), false, {});
        throw publicError(error);
      }
    },
  };
}

function workspaceRoot(root: string): string {
  if (!isAbsolute(root)) {
    throw new BrokerError("BROKER_ERR_OPTIONS", `root must be an absolute path, not ${root}`);
  }
  try {
    const real = realpathSync(root);
    if (statSync(real).isDirectory()) return real;
  } catch {
    // said below
  }
  throw new BrokerError("BROKER_ERR_OPTIONS", `root ${root} is not a directory`);
}

/** Only the broker's own errors reach the hook; anything else loses its host message and stack. */
function publicError(error: unknown): Error {
  if (error instanceof CapabilityDenied || error instanceof BrokerError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new BrokerError("BROKER_ERR_IO", `the host failed to carry out the call${code ? ` (${code})` : ""}`);
}

/** "argument 2.headers.x: message; …" */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const [first, ...rest] = issue.path;
      if (first === undefined) return issue.message;
      const where = typeof first === "number" ? `argument ${first + 1}` : String(first);
      return `${[where, ...rest.map(String)].join(".")}: ${issue.message}`;
    })
    .join("; ");
}

/** What a call that failed before any decision was about, as far as its arguments say. */
function auditTarget(method: string, args: unknown): string {
  const first: unknown = Array.isArray(args) ? args[0] : undefined;
  if (typeof first !== "string") return "";
  if (method !== "net.fetch") return first;
  try {
    return auditUrl(new URL(first));
  } catch {
    return "(not a URL)";
  }
}
