import type { TokenScope } from "../../registry/db/schema.js";

/*
 * registry/db/schema.ts's tokenScopes, for `registry token create --scope`: that module loads
 * drizzle, too much for start-up. A Record needs every scope as a key and no other, so the build
 * fails if the two lists drift apart.
 */
const scopes: Record<TokenScope, true> = { read: true, publish: true, admin: true };

/** Least rights first, as the registry lists them. */
export const tokenScopeChoices = Object.keys(scopes) as TokenScope[];
