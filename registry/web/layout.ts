import { type HtmlValue, html, type SafeHtml } from "./html.js";
import { assetPath } from "./static-assets.js";

export interface PageParts {
  /** The document title, before " · hookyard". */
  title: string;
  /** What the header's search box shows. */
  query?: string;
  main: HtmlValue;
}

/** A whole page: landmarks (header with search and nav, main, footer), one stylesheet, one script. */
export function layout({ title, query = "", main }: PageParts): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · hookyard</title>
<link rel="stylesheet" href="${assetPath("hookyard.css")}">
<link rel="icon" href="${assetPath("favicon.svg")}" type="image/svg+xml">
<script src="${assetPath("copy-button.js")}" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<div class="site-header-inner">
<a class="site-name" href="/">hookyard</a>
<form class="search" role="search" action="/" method="get">
<label for="search-q">Search hooks</label>
<input id="search-q" name="q" type="search" value="${query}" maxlength="256" autocomplete="off">
<button type="submit">Search</button>
</form>
<nav class="site-nav" aria-label="Site">
<ul><li><a href="/">Browse</a></li><li><a href="/docs">API</a></li></ul>
</nav>
</div>
</header>
<main id="main" tabindex="-1">
${main}
</main>
<footer class="site-footer">
<p>Community hooks run in a sandbox with only the capabilities you grant at install.</p>
</footer>
</body>
</html>
`;
}
