/**
 * Advisory severities, lowest first. Apart from package-audit.ts (which loads semver): `audit
 * --level` lists them at start-up.
 */
export const severities = ["low", "moderate", "high", "critical"] as const;
export type Severity = (typeof severities)[number];

export function atLeast(severity: Severity, level: Severity): boolean {
  return severities.indexOf(severity) >= severities.indexOf(level);
}
