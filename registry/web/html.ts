/**
 * Server-rendered HTML without a template engine: `html` is a tagged template that escapes every
 * interpolated value unless it is already SafeHtml (built by `html` itself, or passed through
 * `trustedHtml` by code that made it safe, such as the readme sanitiser).
 */

/** Markup that may be sent as it is. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What `html` accepts: text is escaped, SafeHtml kept, arrays joined, null/undefined/false dropped. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for element content and for quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? "";
  values.forEach((value, i) => {
    markup += render(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(markup);
}

/** Marks `markup` as safe without escaping: only for sanitised output and constants. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}
