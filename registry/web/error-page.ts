import type { FastifyReply, FastifyRequest } from "fastify";
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";
import { sendPage } from "./send-page.js";

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

/** The 404 page for a browser that asked for an address outside the API that does not exist. */
export function sendNotFoundPage(
  request: FastifyRequest,
  reply: FastifyReply,
  message: string,
): FastifyReply {
  return sendPage(request, reply, 404, errorPage(404, message, request.id));
}
