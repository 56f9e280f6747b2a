import { redactEnvLines, redactHighEntropy } from "./assignments.js";
import type { RedactorConfig } from "./config.js";
import { redactPrivateKeys, redactTokens } from "./token-patterns.js";

/**
 * Every secret in `text` replaced by `[redacted:<kind>]`. The most specific shapes go first, so a
 * GitHub token in `GITHUB_TOKEN=ghp_…` is named github-token, not the generic kind.
 */
export function redact(text: string, config: RedactorConfig): string {
  let out = config.skip.has("private-key") ? text : redactPrivateKeys(text);
  out = redactTokens(out, config.skip);
  out = redactEnvLines(out, config.skip);
  if (!config.skip.has("high-entropy-secret")) out = redactHighEntropy(out, config);
  return out;
}
