import {
  formatGrant,
  type Grant,
  grantWithin,
  isRewriteGrant,
  parseGrant,
} from "../../sandbox/capabilities.js";
import type { ClientContext } from "../context.js";
import { ClientError } from "../errors.js";

export interface GrantChoice {
  /** Canonical grant strings, in the order of the request. */
  granted: string[];
  /** Requested capabilities left ungranted. */
  declined: string[];
}

function parse(text: string): Grant {
  const grant = parseGrant(text);
  if (typeof grant === "string") throw new ClientError("CLI_ERR_GRANT", grant);
  return grant;
}

/** Grant strings in their canonical form (as the lockfile holds them); a bad one is a usage error. */
export function canonicalGrants(texts: readonly string[]): string[] {
  return texts.map((text) => formatGrant(parse(text)));
}

/** Checks --grant values against what a package requests: a grant beyond the request is refused, never trimmed. */
export function checkGrantsWithin(
  id: string,
  given: readonly string[],
  requested: readonly string[],
): string[] {
  const ceiling = requested.map(parse);
  return given.map((text) => {
    const grant = parse(text);
    if (!grantWithin(grant, ceiling)) {
      throw new ClientError(
        "CLI_ERR_GRANT",
        `${id} does not request ${formatGrant(grant)}, so it cannot be granted (it requests ${requested.join(", ") || "nothing"}); a grant may narrow a request, never widen it`,
      );
    }
    return formatGrant(grant);
  });
}

/**
 * Decides what a sandboxed package is granted: what --grant says and what an earlier approval of
 * this package keeps, and each other requested capability the context's `approveGrants` says yes
 * to. Without that callback, or with `yes`, nothing beyond those is granted.
 */
export async function chooseGrants(
  context: ClientContext,
  id: string,
  requested: readonly string[],
  given: readonly string[],
  options: { yes: boolean },
): Promise<GrantChoice> {
  const granted = new Set(checkGrantsWithin(id, given, requested));
  const covered = (text: string) => [...granted].some((g) => grantWithin(parse(text), [parse(g)]));
  const undecided = requested.filter((text) => !covered(text));
  if (undecided.length > 0 && !options.yes && context.approveGrants) {
    const approved = await context.approveGrants(id, undecided);
    // Only what was asked about can be approved: a callback cannot widen the request.
    for (const text of approved) if (undecided.includes(text)) granted.add(text);
  }
  return {
    granted: [...granted],
    declined: requested.filter((text) => !covered(text)),
  };
}

/**
 * A hook that exists to rewrite (a redactor, a timeout adder) and got no rewrite grant runs, but
 * every change it makes is undone: it installs fine and does nothing. Said once, at install, with
 * the command that makes it work.
 */
export function warnRewritesUngranted(
  context: ClientContext,
  name: string,
  id: string,
  choice: GrantChoice,
): void {
  const rewrites = choice.declined.filter((text) => isRewriteGrant(parse(text)));
  if (rewrites.length === 0 || choice.granted.some((text) => isRewriteGrant(parse(text)))) return;
  context.notice?.({
    level: "warning",
    text: `${id} asks to change what the agent sees (${rewrites.join(", ")}) and was granted none of it: it will run, but its changes are undone, so it does nothing; to let it: hookyard grant ${name} ${rewrites.join(" ")}`,
  });
}
