import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";

const titles: Record<number, string> = {
  400: "That address is not valid",
  404: "Not found",
};

/** A 4xx or 5xx page: what went wrong, in the error's own message, and where to go from here. */
export function errorPage(status: number, message: string, requestId: string): SafeHtml {
  const title = titles[status] ?? (status >= 500 ? "Something went wrong" : "That request was refused");
  const main = html`<h1>${title}</h1>
<p>${message}</p>
<p><a href="/">Search all hooks</a></p>
${status >= 500 ? html`<p class="meta">Request id: <code>${requestId}</code></p>` : ""}`;
  return layout({ title, main });
}
