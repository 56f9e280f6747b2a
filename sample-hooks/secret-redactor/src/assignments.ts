import { type Kind, marker } from "./kinds.js";

/**
 * Secrets found by the name they are assigned to. The name stays, so the model still knows the
 * setting exists: `DB_PASSWORD=[redacted:password]`.
 */

/** `.env` style lines, `export X=…` and `- X=…` (a compose file) included; the whole value goes. */
const envLine = /^([ \t]*(?:export[ \t]+|-[ \t]+)?)([A-Za-z0-9_.]{1,64})=(.*)$/gm;

export function redactEnvLines(text: string, skip: ReadonlySet<Kind>): string {
  return text.replace(envLine, (line, lead: string, name: string, value: string) => {
    const kind: Kind | undefined = /PASSW(?:OR)?D/i.test(name)
      ? "password"
      : /SECRET/i.test(name)
        ? "secret"
        : undefined;
    const bare = value.trim().replace(/^(["'])(.*)\1$/, "$2");
    // Empty, already redacted, or a reference to another variable: nothing to hide.
    if (!kind || skip.has(kind) || bare === "" || bare.startsWith("$") || bare.startsWith("[redacted:")) {
      return line;
    }
    return `${lead}${name}=${marker(kind)}`;
  });
}

export interface EntropyRule {
  minLength: number;
  /** Shannon entropy in bits per character. */
  minEntropy: number;
}

const nameChar = /[A-Za-z0-9_.-]/;
const maxName = 64;

/**
 * `api_key = "…"`, `"token": "…"`, `X-Api-Key: …`: a value assigned to a name holding key, secret or
 * token, if it is long and random enough to be a credential and not a word or a placeholder.
 * Found from each keyword outwards; text already looked at (an overlong name, a value) is not
 * looked at again, so any input costs linear time.
 */
export function redactHighEntropy(text: string, rule: EntropyRule): string {
  const assigned = new RegExp(
    `["']?[ \\t]*(?::=|=>|[:=])[ \\t]*["']?([A-Za-z0-9+/=_.~-]{${rule.minLength},})`,
    "y",
  );
  const isNameChar = (at: number) => nameChar.test(text[at] ?? "");
  let out = "";
  let copied = 0;
  let next = 0;
  for (const hit of text.matchAll(/key|secret|token/gi)) {
    if (hit.index < next) continue;
    let start = hit.index;
    while (start > 0 && hit.index - start < maxName && isNameChar(start - 1)) start--;
    let end = hit.index + hit[0].length;
    if (start > 0 && isNameChar(start - 1)) {
      // Inside a run of name characters too long to be a name: skip the whole run.
      while (isNameChar(end)) end++;
      next = end;
      continue;
    }
    while (end - start < maxName && isNameChar(end)) end++;
    next = end;
    if (/public/i.test(text.slice(start, end))) continue;
    assigned.lastIndex = end;
    const match = assigned.exec(text);
    const value = match?.[1];
    if (!match || value === undefined) continue;
    next = assigned.lastIndex;
    if (!looksRandom(value, rule)) continue;
    out += text.slice(copied, next - value.length) + marker("high-entropy-secret");
    copied = next;
  }
  return out + text.slice(copied);
}

/** Random enough: not words joined by separators (`your_api_key_here`), and of high entropy. */
function looksRandom(value: string, rule: EntropyRule): boolean {
  if (/^[a-z]+(?:[._-][a-z]+)*$/.test(value) || /^[A-Z]+(?:[._-][A-Z]+)*$/.test(value)) return false;
  return entropy(value) >= rule.minEntropy;
}

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
