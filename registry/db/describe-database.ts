/**
 * A database URL as messages and logs show it: the password left out (`***`), also from a URL
 * that does not parse, so that a typo in a URL never prints the secret in it.
 */
export function describeDatabase(text: string): string {
  if (text.startsWith("sqlite:")) return text;
  try {
    const parsed = new URL(text);
    if (parsed.password) parsed.password = "***";
    if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***");
    return parsed.toString();
  } catch {
    // scheme://user:password@host…: the password runs to the last @ (it may hold one, unescaped).
    return text.replace(/^([^:/]*:\/\/[^:@/]*)(:.*)?@/, (_all, head: string, password?: string) =>
      password ? `${head}:***@` : `${head}@`,
    );
  }
}
