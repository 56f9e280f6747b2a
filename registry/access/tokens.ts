import { createHash, randomBytes } from "node:crypto";
import type { TokenScope } from "../db/schema.js";
import type { Actor, RegistryStore, TokenRecord } from "../store.js";

/** Secrets start with this, so scanners (and people) can tell a hookyard token when they see one. */
export const tokenPrefix = "hyk_";

/** Only this digest is stored; the secret is shown once, when the token is made. */
export function hashToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

const day = 86_400_000;
const units: Record<string, number> = { m: 60_000, h: 3_600_000, d: day };

/**
 * `30d`, `12h`, `90m` as milliseconds; `never` as null; undefined for anything else.
 * Capped at ten years so an expiry always fits in a date.
 */
export function parseDuration(text: string): number | null | undefined {
  if (text === "never") return null;
  const match = /^([1-9][0-9]{0,5})([mhd])$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const ms = Number(match[1]) * (units[match[2]] as number);
  return ms <= 3650 * day ? ms : undefined;
}

export interface IssuedToken {
  /** The secret: shown to the user once, never stored. */
  token: string;
  record: TokenRecord;
}

/** Makes a token (and its owner, if new). `expiresInMs` null means it never expires. */
export async function issueToken(
  store: RegistryStore,
  request: {
    owner: string;
    scope: TokenScope;
    expiresInMs: number | null;
    description?: string | null;
    now: Date;
    actor: Actor;
  },
): Promise<IssuedToken> {
  const token = `${tokenPrefix}${randomBytes(32).toString("base64url")}`;
  const record = await store.createToken(
    {
      id: randomBytes(8).toString("hex"),
      hash: hashToken(token),
      owner: request.owner,
      scope: request.scope,
      description: request.description ?? null,
      createdAt: request.now.toISOString(),
      expiresAt:
        request.expiresInMs === null
          ? null
          : new Date(request.now.getTime() + request.expiresInMs).toISOString(),
    },
    request.actor,
  );
  return { token, record };
}
