import { BlockList, isIP } from "node:net";
import { posix } from "node:path";
import * as z from "zod";

/**
 * Capabilities: what a community hook package asks for (the `capabilities` field of its manifest,
 * a ceiling) and what the user grants (a subset, written as grant strings, DESIGN §6):
 *
 *   fs.read:<path>  fs.write:<path>  net:<host>[:<port>]  process:<command>  env:<NAME>
 *   rewrite:<point>.<field>  redact:<point>.<field>  rewrite (bare: every field, for old packages)
 *
 * Paths are relative to the workspace root (an absolute path is allowed but is high risk). Every
 * check in the sandbox broker works on the typed descriptors parsed here, never on the strings.
 */

const maxPathLength = 1024;

/** A path as a grant or a request names it: normalised, no NUL, never climbing out with `..`. */
export const grantPathSchema = z
  .string()
  .min(1, "a path must not be empty")
  .max(maxPathLength, `a path is at most ${maxPathLength} characters`)
  .refine((p) => !p.includes("\0"), "a path must not contain a NUL byte")
  .refine((p) => !p.includes("\\"), "a path uses / as separator, not \\")
  .transform((p) => {
    const normal = posix.normalize(p);
    return normal.length > 1 ? normal.replace(/\/+$/, "") : normal;
  })
  .refine((p) => p !== ".." && !p.startsWith("../"), "a relative path must stay inside the workspace");

const hostnamePattern =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** `host`, `host:port`, `1.2.3.4:80`, `[::1]:8080`. Hostnames are lower-cased. */
export const netTargetSchema = z.string().transform((text, ctx) => {
  const target = parseNetTarget(text);
  if (typeof target === "string") {
    ctx.addIssue({ code: "custom", message: target });
    return z.NEVER;
  }
  return target;
});

export const commandNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((c) => !c.includes("\0"), "a command must not contain a NUL byte")
  .refine(
    (c) => c.startsWith("/") || /^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(c),
    "a command is a plain name found on PATH (git) or an absolute path (/usr/bin/git)",
  );

function fieldRefSchema() {
  return z.string().transform((text, ctx) => {
    const field = parseFieldRef(text);
    if (typeof field === "string") {
      ctx.addIssue({ code: "custom", message: field });
      return z.NEVER;
    }
    return field;
  });
}

export const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an env var name is letters, digits and _, not starting with a digit");

/**
 * Where a rewrite may land: the ctx fields each point lets a hook change. core/events.ts holds
 * the same table with the ctx schemas (this folder imports nothing from runner/); a test keeps the
 * two equal.
 */
export const rewritableFieldsByPoint: Readonly<Record<string, readonly string[]>> = {
  turn_before: ["prompt"],
  llm_before: ["systemPrompt", "messages", "tools"],
  llm_after: ["response"],
  tool_before: ["args"],
  tool_after: ["result"],
};

/** A field a rewrite or redact grant names: a point and a path whose first name is a rewritable field. */
export interface FieldRef {
  point: string;
  /** `["args", "timeout"]`; the grant covers this field and everything below it. */
  path: readonly string[];
}

const maxFieldDepth = 8;
const fieldNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** `tool_before.args.timeout` to a field, or a message saying what is wrong with it. */
export function parseFieldRef(text: string): FieldRef | string {
  const everywhere = Object.entries(rewritableFieldsByPoint)
    .flatMap(([point, fields]) => fields.map((field) => `${point}.${field}`))
    .join(", ");
  const [point = "", ...path] = text.split(".");
  if (point === "")
    return `name a point and a field, such as tool_before.args.timeout (rewritable: ${everywhere})`;
  const fields = rewritableFieldsByPoint[point];
  if (!Object.hasOwn(rewritableFieldsByPoint, point) || !fields) {
    return `${point} is not a point where anything may be rewritten (rewritable: ${everywhere})`;
  }
  const [field] = path;
  if (field === undefined) {
    return `name a field of ${point}: ${fields.map((f) => `${point}.${f}`).join(", ")}`;
  }
  if (!fields.includes(field)) {
    const elsewhere = Object.entries(rewritableFieldsByPoint)
      .filter(([, f]) => f.includes(field))
      .map(([p]) => `${p}.${field}`);
    return `${field} is not rewritable at ${point} (only ${fields.join(", ")} ${fields.length > 1 ? "are" : "is"}${elsewhere.length > 0 ? `; ${elsewhere.join(", ")} is` : ""})`;
  }
  if (path.length > maxFieldDepth) return `a field path is at most ${maxFieldDepth} names deep`;
  const bad = path.find((name) => !fieldNamePattern.test(name));
  if (bad !== undefined) {
    return `${bad === "" ? "an empty name" : `"${bad}"`} is not a field name (1-64 letters, digits, _ or -, joined by .)`;
  }
  return { point, path };
}

/** The manifest's `capabilities` field: what a package may be granted at most. */
export const capabilityRequestSchema = z.strictObject({
  fs: z
    .strictObject({
      read: z.array(grantPathSchema).max(64).optional(),
      write: z.array(grantPathSchema).max(64).optional(),
    })
    .optional(),
  net: z.array(netTargetSchema).max(64).optional(),
  process: z.array(commandNameSchema).max(64).optional(),
  env: z.array(envNameSchema).max(64).optional(),
  /** Fields it may rewrite, `tool_before.args.timeout`; without this and `redact`, the `rewrite` effect asks for every field. */
  rewrite: z.array(fieldRefSchema()).max(64).optional(),
  /** Fields in which it may only replace text with redaction markers, `tool_after.result`. */
  redact: z.array(fieldRefSchema()).max(64).optional(),
});
export type CapabilityRequest = z.input<typeof capabilityRequestSchema>;

export type Grant =
  | { kind: "fs.read"; path: string }
  | { kind: "fs.write"; path: string }
  | { kind: "net"; host: string; port?: number; literal: boolean }
  | { kind: "process"; command: string }
  | { kind: "env"; name: string }
  /** Without a field: bare `rewrite`, every field at every point (what old packages were granted). */
  | { kind: "rewrite"; field?: FieldRef }
  /** Only replacing spans of text with markers, in the strings of the field. */
  | { kind: "redact"; field: FieldRef };

export type GrantKind = Grant["kind"];
export type RewriteGrant = Extract<Grant, { kind: "rewrite" | "redact" }>;

export function isRewriteGrant(grant: Grant): grant is RewriteGrant {
  return grant.kind === "rewrite" || grant.kind === "redact";
}

/** One grant string to its descriptor, or a message saying what is wrong with it. */
export function parseGrant(text: string): Grant | string {
  if (text === "rewrite") return { kind: "rewrite" };
  const colon = text.indexOf(":");
  if (colon < 0) {
    if (text === "redact") {
      return `"redact": name the field it may redact, redact:<point>.<field> (redact:tool_after.result)`;
    }
    return `"${text}" is not a grant: expected fs.read:<path>, fs.write:<path>, net:<host>[:<port>], process:<command>, env:<NAME>, rewrite:<point>.<field>, redact:<point>.<field> or rewrite`;
  }
  const kind = text.slice(0, colon);
  const value = text.slice(colon + 1);
  const check = <T>(schema: z.ZodType<T>, build: (value: T) => Grant): Grant | string => {
    const parsed = schema.safeParse(value);
    return parsed.success ? build(parsed.data) : `"${text}": ${parsed.error.issues[0]?.message ?? "invalid"}`;
  };
  switch (kind) {
    case "fs.read":
    case "fs.write":
      return check(grantPathSchema, (path) => ({ kind, path }));
    case "net": {
      const target = parseNetTarget(value);
      return typeof target === "string" ? `"${text}": ${target}` : { kind: "net", ...target };
    }
    case "process":
      return check(commandNameSchema, (command) => ({ kind: "process", command }));
    case "env":
      return check(envNameSchema, (name) => ({ kind: "env", name }));
    case "rewrite":
    case "redact": {
      const field = parseFieldRef(value);
      return typeof field === "string" ? `"${text}": ${field}` : { kind, field };
    }
    default:
      return `"${text}": unknown kind "${kind}" (fs.read, fs.write, net, process, env, rewrite, redact)`;
  }
}

export class GrantSyntaxError extends Error {
  readonly code = "GRANT_ERR_SYNTAX";
  constructor(readonly problems: string[]) {
    super(`invalid grant${problems.length > 1 ? "s" : ""}: ${problems.join("; ")}`);
  }
}

/** Parses every grant; throws one GrantSyntaxError listing each bad one. */
export function parseGrants(texts: readonly string[]): Grant[] {
  const grants: Grant[] = [];
  const problems: string[] = [];
  for (const text of texts) {
    const grant = parseGrant(text);
    if (typeof grant === "string") problems.push(grant);
    else grants.push(grant);
  }
  if (problems.length > 0) throw new GrantSyntaxError(problems);
  return grants;
}

/** The canonical string of a grant: `parseGrant(formatGrant(g))` gives `g` back. */
export function formatGrant(grant: Grant): string {
  switch (grant.kind) {
    case "fs.read":
    case "fs.write":
      return `${grant.kind}:${grant.path}`;
    case "net": {
      const host = isIP(grant.host) === 6 ? `[${grant.host}]` : grant.host;
      return `net:${host}${grant.port === undefined ? "" : `:${grant.port}`}`;
    }
    case "process":
      return `process:${grant.command}`;
    case "env":
      return `env:${grant.name}`;
    case "rewrite":
    case "redact":
      return grant.field ? `${grant.kind}:${formatField(grant.field)}` : "rewrite";
  }
}

/** `tool_before.args.timeout`. */
export function formatField(field: FieldRef): string {
  return [field.point, ...field.path].join(".");
}

/** Everything a manifest asks for, as grant strings (the ceiling of what a user may grant). */
export function requestedGrants(
  request: z.output<typeof capabilityRequestSchema> | undefined,
  effects: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (const path of request?.fs?.read ?? []) out.push(`fs.read:${path}`);
  for (const path of request?.fs?.write ?? []) out.push(`fs.write:${path}`);
  for (const target of request?.net ?? []) out.push(formatGrant({ kind: "net", ...target }));
  for (const command of request?.process ?? []) out.push(`process:${command}`);
  for (const name of request?.env ?? []) out.push(`env:${name}`);
  const fields = [...(request?.rewrite ?? []), ...(request?.redact ?? [])];
  for (const field of request?.rewrite ?? []) out.push(`rewrite:${formatField(field)}`);
  for (const field of request?.redact ?? []) out.push(`redact:${formatField(field)}`);
  // An old package names no field: its rewrite effect asks for all of them.
  if (effects.includes("rewrite") && fields.length === 0) out.push("rewrite");
  return [...new Set(out)];
}

/** Whether `granted` asks for no more than one of `requested` allows (granted ⊆ requested). */
export function grantWithin(granted: Grant, requested: readonly Grant[]): boolean {
  return requested.some((r) => {
    if (isRewriteGrant(granted) && isRewriteGrant(r)) return rewriteWithin(granted, r);
    if (r.kind !== granted.kind) return false;
    switch (granted.kind) {
      case "fs.read":
      case "fs.write":
        return pathUnder(granted.path, (r as { path: string }).path);
      case "net": {
        const n = r as Extract<Grant, { kind: "net" }>;
        return n.host === granted.host && (n.port === undefined || n.port === granted.port);
      }
      case "process":
        return (r as { command: string }).command === granted.command;
      case "env":
        return (r as { name: string }).name === granted.name;
    }
    return false;
  });
}

/**
 * A rewrite grant inside another: bare `rewrite` holds every field; a field holds its sub-fields;
 * and a redact is the narrower form of a rewrite of the same field (never the reverse).
 */
function rewriteWithin(granted: RewriteGrant, requested: RewriteGrant): boolean {
  if (requested.kind === "rewrite" && requested.field === undefined) return true;
  if (granted.field === undefined) return false;
  if (granted.kind === "rewrite" && requested.kind === "redact") return false;
  return fieldWithin(granted.field, requested.field as FieldRef);
}

/** Whether `inner` is `outer` or one of its sub-fields. */
export function fieldWithin(inner: FieldRef, outer: FieldRef): boolean {
  return (
    inner.point === outer.point &&
    inner.path.length >= outer.path.length &&
    outer.path.every((name, i) => inner.path[i] === name)
  );
}

/** Whether normalised path `inner` is `outer` or below it (both relative, or both absolute). */
export function pathUnder(inner: string, outer: string): boolean {
  if (outer === "." && !inner.startsWith("/")) return true;
  if (inner === outer) return true;
  const prefix = outer.endsWith("/") ? outer : `${outer}/`;
  return inner.startsWith(prefix);
}

export type Risk = "low" | "medium" | "high";

/** A grant in plain words with a risk level, for install prompts, `info` and the web pages. */
export function describeGrant(grant: Grant): { text: string; risk: Risk } {
  switch (grant.kind) {
    case "fs.read":
      if (grant.path.startsWith("/"))
        return { text: `reads files under ${grant.path} (outside the workspace)`, risk: "high" };
      if (grant.path === ".") return { text: "reads any file in the workspace", risk: "medium" };
      return { text: `reads files under ${grant.path}`, risk: "low" };
    case "fs.write":
      if (grant.path.startsWith("/"))
        return { text: `writes files under ${grant.path} (outside the workspace)`, risk: "high" };
      if (grant.path === ".") return { text: "writes any file in the workspace", risk: "high" };
      return { text: `writes files under ${grant.path}`, risk: "medium" };
    case "net": {
      const target = formatGrant(grant).slice("net:".length);
      if (grant.literal && isInternalAddress(grant.host)) {
        return { text: `connects to ${target} (a local or private address)`, risk: "high" };
      }
      return {
        text: `connects to ${target}${grant.port === undefined ? " on any port" : ""}`,
        risk: "medium",
      };
    }
    case "process":
      return { text: `runs ${grant.command}`, risk: "high" };
    case "env":
      return { text: `reads the environment variable ${grant.name}`, risk: "medium" };
    case "rewrite":
    case "redact":
      return describeRewrite(grant);
  }
}

/**
 * Tool arguments a rewrite may change without changing what the tool does: how long it may take.
 * A grant holds for every tool its hook sees, so every other argument may decide what runs (bash's
 * command), which file is read or written (path, file_path) or what is written (content); even
 * `description`, only words for the user at a coding agent's bash, is the text an issue tracker's
 * create_issue tool writes.
 */
export const harmlessToolArgs: readonly string[] = ["timeout"];

/**
 * Whether changing `field` can change what a tool runs: the arguments of a tool call (but for the
 * harmless ones), or the tool calls of a model reply, which the agent runs next.
 */
export function changesWhatRuns(field: FieldRef): boolean {
  const [top, sub] = field.path;
  if (field.point === "tool_before" && top === "args")
    return sub === undefined || !harmlessToolArgs.includes(sub);
  if (field.point === "llm_after" && top === "response") return sub === undefined || sub === "toolCalls";
  return false;
}

const fieldWords: Record<string, string> = {
  "turn_before.prompt": "your prompts",
  "llm_before.systemPrompt": "the system prompt sent to the model",
  "llm_before.messages": "the messages sent to the model",
  "llm_before.tools": "the tool list sent to the model",
  "llm_after.response": "the model's replies",
  "tool_before.args": "the arguments of tool calls",
  "tool_after.result": "tool results",
};

/** The field in words: "the arguments of tool calls", "the timeout argument of tool calls". */
function fieldText(field: FieldRef): string {
  const [top = "", ...rest] = field.path;
  const words = fieldWords[`${field.point}.${top}`] ?? `${field.point}.${top}`;
  if (rest.length === 0) return words;
  if (field.point === "tool_before" && top === "args") return `the ${rest.join(".")} argument of tool calls`;
  return `${words} (only ${rest.join(".")})`;
}

function describeRewrite(grant: RewriteGrant): { text: string; risk: Risk } {
  if (!grant.field) {
    return {
      text: "can rewrite anything it sees, at every point: prompts, model replies, tool results, and tool arguments, so what a command runs",
      risk: "high",
    };
  }
  const where = `${fieldText(grant.field)} (${formatField(grant.field)})`;
  const runs = changesWhatRuns(grant.field);
  if (grant.kind === "redact") {
    return runs
      ? {
          text: `can cut text out of ${where}, replacing it with markers such as [redacted], which changes what a tool runs`,
          risk: "high",
        }
      : { text: `can hide text in ${where}, only replacing it with markers such as [redacted]`, risk: "low" };
  }
  return runs
    ? {
        text: `can rewrite ${where}, and so change what a tool runs (a command, a file path, what is written)`,
        risk: "high",
      }
    : { text: `can rewrite ${where}`, risk: "medium" };
}

/** The highest risk among grants, "low" for none. */
export function highestRisk(grants: readonly Grant[]): Risk {
  const order: Risk[] = ["low", "medium", "high"];
  return grants.reduce<Risk>((worst, g) => {
    const risk = describeGrant(g).risk;
    return order.indexOf(risk) > order.indexOf(worst) ? risk : worst;
  }, "low");
}

function parseNetTarget(text: string): { host: string; port?: number; literal: boolean } | string {
  let host: string;
  let portText: string | undefined;
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0) return `an IPv6 address is written in brackets, [::1]:8080`;
    host = text.slice(1, end);
    const rest = text.slice(end + 1);
    if (rest !== "" && !rest.startsWith(":")) return `expected :<port> after ]`;
    portText = rest === "" ? undefined : rest.slice(1);
    if (isIP(host) !== 6) return `${host} is not an IPv6 address`;
  } else {
    const parts = text.split(":");
    if (parts.length > 2) return `an IPv6 address is written in brackets, [::1]:8080`;
    host = (parts[0] ?? "").toLowerCase();
    portText = parts[1];
    if (isIP(host) === 0 && !hostnamePattern.test(host)) return `"${host}" is not a host name`;
    // Numeric forms that resolvers read as addresses (2130706433, 0x7f.1, 017700000001) must be
    // granted in dotted decimal, so a grant names exactly the address it allows.
    const last = host.split(".").at(-1) ?? "";
    if (isIP(host) === 0 && /^(0x[0-9a-f]*|[0-9]+)$/.test(last)) {
      return `write an IPv4 address in dotted decimal (127.0.0.1)`;
    }
  }
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65_535) {
      return `the port must be 1-65535`;
    }
    port = Number(portText);
  }
  return { host, ...(port === undefined ? {} : { port }), literal: isIP(host) !== 0 };
}

/**
 * Ranges a hook may reach only through a grant of the literal address: loopback, private,
 * link-local (incl. cloud metadata), CGNAT, benchmarking, unspecified, multicast and reserved;
 * in IPv6 also ULA, site-local, discard, NAT64, 6to4 and the IPv4-compatible and -translated
 * forms. BlockList applies the IPv4 rules to IPv4-mapped IPv6 addresses (::ffff:7f00:1) too.
 */
const internalRanges = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  internalRanges.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96],
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 32],
  ["100::", 64],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  internalRanges.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address lies in a range that only a literal grant may reach; false for a host name. */
export function isInternalAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  return internalRanges.check(address, version === 4 ? "ipv4" : "ipv6");
}
