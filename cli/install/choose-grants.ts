import { createInterface } from "node:readline/promises";
import {
  describeGrant,
  formatGrant,
  type Grant,
  grantWithin,
  parseGrant,
} from "../../sandbox/capabilities.js";
import type { CliContext } from "../command.js";
import { CliError, exitCodes } from "../errors.js";
import { terminalLine } from "../ui/terminal-text.js";

export interface GrantChoice {
  /** Canonical grant strings, in the order of the request. */
  granted: string[];
  /** Requested capabilities left ungranted. */
  declined: string[];
}

function parse(text: string): Grant {
  const grant = parseGrant(text);
  if (typeof grant === "string") throw new CliError("CLI_ERR_GRANT", grant, exitCodes.usage);
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
      throw new CliError(
        "CLI_ERR_GRANT",
        `${id} does not request ${formatGrant(grant)}, so it cannot be granted (it requests ${requested.join(", ") || "nothing"}); a grant may narrow a request, never widen it`,
        exitCodes.usage,
      );
    }
    return formatGrant(grant);
  });
}

/** A requested capability in plain words with its risk, as install prompts and `info` show it. */
export function grantLine(text: string): string {
  const { text: words, risk } = describeGrant(parse(text));
  // A requested path may hold terminal escapes: what a package asks for is shown, never obeyed.
  return terminalLine(`${words} (${risk} risk) [${text}]`);
}

/**
 * Decides what a sandboxed package is granted: what --grant says and what an earlier approval of
 * this package keeps, and on a terminal, each other requested capability the user says yes to.
 * Without a terminal, or with --yes, nothing beyond those is granted.
 */
export async function chooseGrants(
  context: CliContext,
  id: string,
  requested: readonly string[],
  given: readonly string[],
  options: { yes: boolean },
): Promise<GrantChoice> {
  const granted = new Set(checkGrantsWithin(id, given, requested));
  const covered = (text: string) => [...granted].some((g) => grantWithin(parse(text), [parse(g)]));
  const undecided = requested.filter((text) => !covered(text));
  if (undecided.length > 0 && !options.yes && context.stdin.isTTY) {
    const rl = createInterface({ input: context.stdin, output: context.stderr });
    try {
      for (const text of undecided) {
        const answer = await rl.question(`grant ${id}: ${grantLine(text)}? [y/N] `).catch((error: Error) => {
          // Ctrl-C or Ctrl-D at the question: the install stops, and nothing was written yet.
          throw new CliError(
            "CLI_ERR_INTERRUPTED",
            `interrupted at the grant question: ${error.message}`,
            130,
          );
        });
        if (/^y(es)?$/i.test(answer.trim())) granted.add(text);
      }
    } finally {
      rl.close();
    }
  }
  return {
    granted: [...granted],
    declined: requested.filter((text) => !covered(text)),
  };
}
