import { envNameSchema, type Grant } from "../capabilities.js";
import type { Check } from "./check.js";

/** The value of a granted variable (null when unset); any other name is denied. */
export function getEnv(
  grants: readonly Grant[],
  source: Readonly<Record<string, string | undefined>>,
  check: Check,
  name: string,
): string | null {
  const grant = grants.find((g) => g.kind === "env" && g.name === name);
  if (!grant) {
    if (!envNameSchema.safeParse(name).success) {
      throw check.refuse(name, "BROKER_ERR_BAD_ARGS", `"${name}" is not an environment variable name`);
    }
    throw check.deny(name, `env:${name}`);
  }
  check.allow(name, grant);
  return source[name] ?? null;
}
