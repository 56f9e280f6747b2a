/** What a redaction says it hid: `[redacted:<kind>]`. */
export const kinds = [
  "private-key",
  "jwt",
  "aws-access-key-id",
  "aws-secret-access-key",
  "github-token",
  "gitlab-token",
  "slack-token",
  "password",
  "secret",
  "high-entropy-secret",
] as const;
export type Kind = (typeof kinds)[number];

export const marker = (kind: Kind) => `[redacted:${kind}]`;
