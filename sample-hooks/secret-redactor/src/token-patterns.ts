import { type Kind, marker } from "./kinds.js";

/**
 * Secrets recognisable by their own shape. Each pattern starts with a lookbehind that refuses to
 * start inside a run of the token's characters, so the engine tries each run once: a long run of
 * look-alike text (a base64 blob) costs linear time, not quadratic.
 */
const shapes: Array<{ kind: Kind; pattern: RegExp }> = [
  {
    kind: "jwt",
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  },
  { kind: "aws-access-key-id", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  {
    kind: "github-token",
    pattern:
      /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/g,
  },
  { kind: "gitlab-token", pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g },
  { kind: "slack-token", pattern: /(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}/g },
];

/**
 * An AWS secret access key is 40 characters of base64 with no prefix of its own: it is found by the
 * name in front of it (`aws_secret_access_key = …`, `"SecretAccessKey": "…"`), which stays.
 */
const awsSecret =
  /((?<![A-Za-z0-9_])(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]*[:=][ \t]*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/gi;

export function redactTokens(text: string, skip: ReadonlySet<Kind>): string {
  let out = text;
  for (const { kind, pattern } of shapes) {
    if (!skip.has(kind)) out = out.replace(pattern, marker(kind));
  }
  if (!skip.has("aws-secret-access-key"))
    out = out.replace(awsSecret, `$1${marker("aws-secret-access-key")}`);
  return out;
}

const keyBegin = /-----BEGIN ([A-Z0-9]+ ){0,4}PRIVATE KEY-----/g;
const keyEnd = /-----END ([A-Z0-9]+ ){0,4}PRIVATE KEY-----/y;
/** The body of a key block cut short (a truncated output): base64 lines and `Name: value` headers. */
const truncatedBody = /(?:\r?\n(?:[A-Za-z0-9+/=]{1,200}|[A-Za-z-]{1,40}: [^\r\n]{0,200})?(?=\r?\n|$))*/y;

/** `-----BEGIN … PRIVATE KEY-----` to its END line; without one, to where the key's text stops. */
export function redactPrivateKeys(text: string): string {
  let out = "";
  let at = 0;
  // Where a search for an END line found none: no later BEGIN has one either, so none searches again.
  let noEndAfter = text.length;
  keyBegin.lastIndex = 0;
  for (let begin = keyBegin.exec(text); begin; begin = keyBegin.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    let end = -1;
    for (let search = bodyStart < noEndAfter ? text.indexOf("-----END ", bodyStart) : -1; search >= 0; ) {
      keyEnd.lastIndex = search;
      if (keyEnd.exec(text)) {
        end = keyEnd.lastIndex;
        break;
      }
      search = text.indexOf("-----END ", search + 1);
    }
    if (end < 0) {
      noEndAfter = Math.min(noEndAfter, bodyStart);
      truncatedBody.lastIndex = bodyStart;
      truncatedBody.exec(text);
      end = truncatedBody.lastIndex;
    }
    out += text.slice(at, begin.index) + marker("private-key");
    at = end;
    keyBegin.lastIndex = end;
  }
  return out + text.slice(at);
}
