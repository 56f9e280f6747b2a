import semver from "semver";
import { ClientError } from "../errors.js";

interface Published {
  name: string;
  version: string;
  registry: string;
}

const loginAgain = ({ registry }: Published) =>
  `run \`hookyard login --registry ${registry}\` with a valid publish token, or pass --token`;

/** What to do about the refusals an author meets; the registry's own message already says what went wrong. */
const advice: Record<string, (target: Published) => string> = {
  REG_ERR_VERSION_EXISTS: ({ version }) =>
    `set "version" in package.json to ${semver.inc(version, "patch") ?? "a new version"} (npm version patch) and publish again`,
  REG_ERR_AUTH_REQUIRED: loginAgain,
  REG_ERR_TOKEN_INVALID: loginAgain,
  REG_ERR_TOKEN_EXPIRED: loginAgain,
  REG_ERR_TOKEN_REVOKED: loginAgain,
};

/** A registry refusal of a publish, with the registry's REG_ code and advice for the author added. */
export function explainPublishRefusal(error: unknown, target: Published): unknown {
  if (!(error instanceof ClientError) || error.code !== "CLI_ERR_REGISTRY_REFUSED") return error;
  const code = (error.cause as { code?: string } | undefined)?.code;
  const say = code === undefined ? undefined : advice[code];
  if (!say) return error;
  return new ClientError(error.code, `${error.message}: ${say(target)}`, { cause: error.cause });
}
