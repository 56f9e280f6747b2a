import { advisoryAffects } from "../audit.js";
import type { ClientContext } from "../context.js";
import type { RegistryClient } from "../registry-client.js";

/**
 * A warning for each advisory that names the version being installed, as npm prints its audit
 * summary after an install: the install goes on (the user chose that version), and is not silent.
 */
export async function noticeAdvisories(
  context: ClientContext,
  client: RegistryClient,
  name: string,
  version: string,
): Promise<void> {
  const advisories = (await client.advisories([name]))[name] ?? [];
  for (const advisory of advisories.filter((a) => advisoryAffects(a, version))) {
    context.notice?.({
      level: "warning",
      text: `${name}@${version} has a ${advisory.severity} advisory (${advisory.id}, versions ${advisory.range}): ${advisory.text}; \`hookyard audit\` says what to do`,
    });
  }
}
