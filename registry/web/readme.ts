import MarkdownIt, { type Token } from "markdown-it";
import sanitizeHtml from "sanitize-html";
import { type SafeHtml, trustedHtml } from "./html.js";

/**
 * A package's readme as HTML that cannot act: markdown-it with raw HTML off (a `<script>` in the
 * readme is shown as text), links kept only to http(s), mailto and in-page anchors, images never
 * loaded (a remote image becomes a link to it, any other its alt text), headings moved below the
 * page's own; then sanitize-html with a strict allowlist, in case markdown-it ever emits more than
 * we expect. Nothing else the readme holds reaches the page: no attributes but these, no styles.
 */

/** Written by untrusted publishers: links out tell search engines and the target nothing. */
const outboundRel = "nofollow noopener noreferrer ugc";

/** The page has h1 (the package) and h2 (its sections): the readme's # is an h3. */
const headingShift = 2;

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

markdown.core.ruler.push("hookyard_inert", (state) => {
  for (const token of state.tokens) {
    if (token.type === "heading_open" || token.type === "heading_close") {
      token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + headingShift)}`;
    }
    if (token.children) token.children = inertInline(token.children);
  }
});

/**
 * Links to anything but http(s), mailto and anchors lose their link and keep their text (links do
 * not nest, so the next link_close is the pair of a link_open); images become a link or text.
 */
function inertInline(tokens: readonly Token[]): Token[] {
  const out: Token[] = [];
  let inLink = false;
  let dropping = false;
  for (const token of tokens) {
    if (token.type === "link_open") {
      const href = allowedHref(String(token.attrGet("href") ?? ""));
      inLink = true;
      dropping = href === undefined;
      if (href === undefined) continue;
      token.attrs = href.startsWith("#")
        ? [["href", href]]
        : [
            ["href", href],
            ["rel", outboundRel],
          ];
      out.push(token);
    } else if (token.type === "link_close") {
      if (!dropping) out.push(token);
      inLink = false;
      dropping = false;
    } else if (token.type === "image") {
      out.push(...imageStandIn(token, inLink));
    } else {
      out.push(token);
    }
  }
  return out;
}

/** `[image: alt]`, linked to the image when it is on http(s) and not inside another link. */
function imageStandIn(image: Token, insideLink: boolean): Token[] {
  const text = new MarkdownIt.Token("text", "", 0);
  text.content = `[image: ${image.children?.map((child) => child.content).join("") || "no description"}]`;
  const src = allowedHref(String(image.attrGet("src") ?? ""));
  if (insideLink || src === undefined || !/^https?:/i.test(src)) return [text];
  const open = new MarkdownIt.Token("link_open", "a", 1);
  open.attrs = [
    ["href", src],
    ["rel", outboundRel],
  ];
  return [open, text, new MarkdownIt.Token("link_close", "a", -1)];
}

/** The href as given when it is an http(s) or mailto URL or an in-page anchor; else undefined. */
function allowedHref(href: string): string | undefined {
  if (href.startsWith("#")) return href;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return ["http:", "https:", "mailto:"].includes(url.protocol) ? href : undefined;
}

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "ul",
    "ol",
    "li",
    "pre",
    "code",
    "em",
    "strong",
    "s",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: { a: ["href", "rel"], ol: ["start"], code: ["class"] },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  parseStyleAttributes: false,
};

/** Markdown to HTML that is safe to put in a page (see the comment at the top). */
export function renderReadme(source: string): SafeHtml {
  return trustedHtml(sanitizeHtml(markdown.render(source), sanitizeOptions));
}
