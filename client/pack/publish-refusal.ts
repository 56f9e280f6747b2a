import semver from "semver";
import { ClientError } from "../errors.js";

interface Published {
  name: string;
  version: string;
  registry: string;
}

const loginAgain = ({ registry }: Published, registrySaid: string) =>
  `${registrySaid}: run \`hookyard login --registry ${registry}\` with a valid publish token, or pass --token`;

/**
 * The refusals an author meets, said for them: what went wrong (the registry's own words, unless
 * its remedy is one the author would be told twice) and what to do in this package.
 */
const advice: Record<string, (target: Published, registrySaid: string) => string> = {
  REG_ERR_VERSION_EXISTS: ({ name, version, registry }) =>
    `${name}@${version} is already on ${registry}, and versions are immutable (even yanked ones) (REG_ERR_VERSION_EXISTS): ` +
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
  return new ClientError(error.code, say(target, error.message), { cause: error.cause });
}
