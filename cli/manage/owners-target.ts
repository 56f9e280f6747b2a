import { ClientError } from "../../client/errors.js";
import type { OwnersOf } from "../../client/registry-client.js";
import { packageNameSchema } from "../../package/manifest.js";
import { ownerNamePattern, scopePattern } from "../../package/names.js";

/** `guard` or `@acme/guard` (a package), `@acme` (a scope): a usage error for anything else. */
export function parseOwnersTarget(text: string): OwnersOf {
  if (text.startsWith("@") && !text.includes("/")) {
    if (!scopePattern.test(text)) {
      throw new ClientError(
        "CLI_ERR_USAGE",
        `${text} is not a scope: a scope is @ and a name, such as @acme`,
      );
    }
    return { scope: text };
  }
  const parsed = packageNameSchema.safeParse(text);
  if (!parsed.success) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `"${text}" is not a package name (${parsed.error.issues[0]?.message}) or a scope (@acme)`,
    );
  }
  return { package: text };
}

/** What the owners are of, as a sentence names it. */
export function ownersTargetName(of: OwnersOf): string {
  return "scope" in of ? `the scope ${of.scope}` : of.package;
}

export function checkOwnerName(name: string): string {
  if (!ownerNamePattern.test(name)) {
    throw new ClientError(
      "CLI_ERR_USAGE",
      `"${name}" is not an owner name (lower case a-z 0-9 . _ -, at most 64 characters)`,
    );
  }
  return name;
}
