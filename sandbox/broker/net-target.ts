import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { formatGrant, type Grant, isInternalAddress } from "../capabilities.js";
import type { Check } from "./check.js";
import { BrokerError } from "./errors.js";

type NetGrant = Extract<Grant, { kind: "net" }>;

export interface NetScope {
  /** Grants with their host in the form the URL parser gives (IPv6 compressed, lower case). */
  grants: { grant: NetGrant; host: string }[];
  /** Name → addresses, consulted before DNS. */
  hosts: Map<string, string[]>;
}

/** Where one request goes: the checked address it connects to, and the name it asks for. */
export interface Destination {
  url: URL;
  /** Host name or address as in the URL, without brackets or a trailing dot. */
  host: string;
  port: number;
  address: string;
  family: 4 | 6;
}

export function netScope(
  grants: readonly Grant[],
  hosts: Readonly<Record<string, readonly string[]>> = {},
): NetScope {
  const map = new Map<string, string[]>();
  for (const [name, addresses] of Object.entries(hosts)) {
    const bad = addresses.find((address) => isIP(address) === 0);
    if (bad !== undefined) {
      throw new BrokerError(
        "BROKER_ERR_OPTIONS",
        `hosts: ${name} maps to "${bad}", which is not an IP address`,
      );
    }
    map.set(name.toLowerCase(), [...addresses]);
  }
  return {
    grants: grants
      .filter((grant): grant is NetGrant => grant.kind === "net")
      .map((grant) => ({ grant, host: canonicalHost(grant.host) })),
    hosts: map,
  };
}

/** A URL's host as the WHATWG parser writes it, so that grant and request compare as equals. */
function canonicalHost(host: string): string {
  return isIP(host) === 6 ? new URL(`http://[${host}]`).hostname.slice(1, -1) : host;
}

/** A URL as the audit log shows it: no credentials, no query (tokens live there), no fragment. */
export function auditUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * Checks one request (the first, or a redirect) and resolves its host; records the decision.
 * The host is the one the URL parser produced, so numeric spellings (2130706433, 0x7f.1,
 * 017700000001, 127.1) are already 127.0.0.1 here. Every address a name resolves to is checked,
 * and the request connects to a checked one.
 */
export async function authoriseUrl(
  scope: NetScope,
  url: URL,
  method: string,
  check: Check,
): Promise<Destination> {
  const target = `${method} ${auditUrl(url)}`;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw check.refuse(
      target,
      "BROKER_ERR_BAD_ARGS",
      `only http: and https: URLs can be fetched, not ${url.protocol}`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw check.refuse(
      target,
      "BROKER_ERR_BAD_ARGS",
      "a URL must not carry credentials: send an Authorization header",
    );
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  const literal = isIP(host) !== 0;
  const grantFor = (name: string) =>
    scope.grants.find((g) => g.host === name && (g.grant.port === undefined || g.grant.port === port));

  const granted = grantFor(host);
  if (!granted) throw check.deny(target, formatGrant({ kind: "net", host, port, literal }));
  if (literal) {
    // The grant names this very address, internal or not.
    check.allow(target, granted.grant);
    return { url, host, port, address: host, family: isIP(host) === 6 ? 6 : 4 };
  }

  const addresses = await resolve(scope, host);
  for (const { address } of addresses) {
    if (isInternalAddress(address) && !grantFor(canonicalHost(address))?.grant.literal) {
      const needs = formatGrant({ kind: "net", host: address, port, literal: true });
      throw check.deny(
        target,
        needs,
        `${host} resolves to ${address}, a loopback, private or link-local address, which only a grant of that literal address allows`,
      );
    }
  }
  const [first] = addresses as [(typeof addresses)[number]];
  check.allow(target, granted.grant);
  return { url, host, port, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function resolve(scope: NetScope, host: string): Promise<{ address: string; family: number }[]> {
  const mapped = scope.hosts.get(host)?.map((address) => ({ address, family: isIP(address) }));
  const found = mapped ?? (await lookup(host, { all: true, verbatim: true }).catch(() => []));
  if (found.length === 0) throw new BrokerError("BROKER_ERR_NET", `${host} could not be resolved`);
  return found;
}
