import type { TokenScope } from "../db/schema.js";
import { RegistryError } from "../errors.js";
import type { RightsFacts } from "../store.js";

/** Who is calling: the owner behind a valid bearer token. */
export interface Principal {
  tokenId: string;
  owner: string;
  scope: TokenScope;
}

const rank: Record<TokenScope, number> = { read: 0, publish: 1, admin: 2 };

/** Whether a token of scope `held` may do what `needed` allows. */
export function scopeAllows(held: TokenScope, needed: TokenScope): boolean {
  return rank[held] >= rank[needed];
}

export function requireScope(principal: Principal, needed: TokenScope): void {
  if (!scopeAllows(principal.scope, needed)) {
    throw new RegistryError(
      "REG_ERR_FORBIDDEN",
      `this needs a ${needed} token, and yours is a ${principal.scope} token (make one with \`hookyard registry token create --scope ${needed}\`)`,
    );
  }
}

/**
 * May `principal` publish to `facts.name`? An existing package: its owners and its scope's
 * owners. A new one: anyone with a publish token, inside a scope only its owners (an unclaimed
 * scope goes to the first publisher), and never a name confusable with another owner's package.
 */
export function authorizePublish(principal: Principal, facts: RightsFacts): void {
  requireScope(principal, "publish");
  if (facts.packageOwners) {
    authorizeManage(principal, facts);
    return;
  }
  const scope = facts.name.split("/")[0] as string;
  if (
    facts.scopeOwners.length > 0 &&
    !facts.scopeOwners.includes(principal.owner) &&
    principal.scope !== "admin"
  ) {
    throw new RegistryError(
      "REG_ERR_FORBIDDEN",
      `${principal.owner} may not publish new packages in ${scope}: ask one of its owners (${facts.scopeOwners.join(", ")}) to add you`,
    );
  }
  const clash = facts.confusable.find((other) => !other.owners.includes(principal.owner));
  if (clash) {
    throw new RegistryError(
      "REG_ERR_NAME_CONFUSABLE",
      `${facts.name} differs from ${clash.name}, owned by someone else, only by case, ".", "-" or "_": pick a name users cannot mistake for it`,
    );
  }
}

/** Yank, deprecate, change owners: the package's owners, its scope's owners, or an admin. */
export function authorizeManage(principal: Principal, facts: RightsFacts): void {
  requireScope(principal, "publish");
  if (principal.scope === "admin") return;
  const allowed = [...(facts.packageOwners ?? []), ...facts.scopeOwners];
  if (!allowed.includes(principal.owner)) {
    throw new RegistryError(
      "REG_ERR_FORBIDDEN",
      `${principal.owner} is not an owner of ${facts.name} (its owners: ${(facts.packageOwners ?? []).join(", ") || "none"})`,
    );
  }
}

/** Changing a scope's owners: its owners, or an admin. */
export function authorizeScope(principal: Principal, scope: string, owners: readonly string[]): void {
  requireScope(principal, "publish");
  if (principal.scope === "admin" || owners.includes(principal.owner)) return;
  throw new RegistryError(
    "REG_ERR_FORBIDDEN",
    `${principal.owner} is not an owner of ${scope}${owners.length > 0 ? ` (its owners: ${owners.join(", ")})` : ""}`,
  );
}

export function requireAdmin(principal: Principal): void {
  requireScope(principal, "admin");
}
