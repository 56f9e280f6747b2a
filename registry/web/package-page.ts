import { describeCapabilities, describeEffect, describePoint } from "../../package/capability-wording.js";
import { installCommand } from "../../package/install-command.js";
import { tarballPath } from "../documents/package-document.js";
import type { VersionRecord } from "../store.js";
import { browseHref } from "./browse-query.js";
import { counted, dateTime, riskBadge } from "./fragments.js";
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";
import type { PackageView } from "./package-view.js";
import { packageHref, versionHref } from "./paths.js";
import type { ReadmeRenderer } from "./readme-cache.js";

/**
 * /packages/:name and /packages/:name/v/:version, laid out as npm, JSR and Open VSX are: the
 * header, the install line (with the grants it needs) and the readme in the main column; what it
 * can touch, advisories, what it hooks, the facts and the versions in a sidebar beside it (below
 * it on a narrow screen). The header names the risk level, so a phone shows it before the readme.
 */
export function packagePage(view: PackageView, readme: ReadmeRenderer, now: Date): SafeHtml {
  const { name, shown, pinned } = view;
  const risk = describeCapabilities(shown.capabilities).risk;
  const main = html`<article class="package">
<div class="package-main">
<header class="package-header">
<h1>${name}</h1>
<p class="version-line">Version ${shown.version}${versionStatus(view)} · published ${dateTime(shown.publishedAt, now)}</p>
${view.manifest.description ? html`<p class="lead">${view.manifest.description}</p>` : ""}
<p>${riskBadge(risk)} <a href="#capabilities-heading">what it can touch</a></p>
${notices(view, now)}
</header>
${installSection(view, now)}
<section class="readme-section" aria-labelledby="readme-heading">
<h2 id="readme-heading">Readme</h2>
${shown.readme === null ? html`<p>This version has no readme.</p>` : html`<div class="readme">${readme(shown)}</div>`}
</section>
</div>
<aside class="package-side" aria-label="About this package">
${capabilityList(shown)}
${advisoryList(view, now)}
${hookFacts(view)}
${detailList(view, now)}
${versionList(view, now)}
</aside>
</article>`;
  return layout({ title: pinned ? `${name}@${shown.version}` : name, main });
}

function versionStatus({ name, shown, latest, pinned }: PackageView): SafeHtml | string {
  if (shown.version === latest) return " (latest)";
  if (latest === undefined) return "";
  return pinned ? html` · the latest is <a href="${packageHref(name)}">${latest}</a>` : "";
}

function notices({ shown, versions }: PackageView, now: Date): SafeHtml {
  return html`${
    shown.yanked
      ? html`<p class="notice risk-high">This version was yanked ${dateTime(shown.yanked.at, now)}: ${shown.yanked.reason}</p>`
      : ""
  }${
    shown.deprecated ? html`<p class="notice risk-medium">Deprecated: ${shown.deprecated.message}</p>` : ""
  }${
    versions.every((v) => v.yanked)
      ? html`<p class="notice risk-high">Every version of this package is yanked.</p>`
      : ""
  }`;
}

/**
 * The command to copy: this version, sandboxed, granted what it asks for. A yanked version gets a
 * warning instead, naming the advisories that cover it and the version to use; its command is
 * still there to read, folded away and without a Copy button.
 */
function installSection(view: PackageView, now: Date): SafeHtml {
  const { name, shown, latest } = view;
  const line = installCommand(`${name}@${shown.version}`, shown.capabilities);
  const command = html`<figure class="install-command" aria-label="Install command"><pre class="install-line" id="install-line"><code>${line}</code></pre></figure>`;
  if (shown.yanked) {
    const covering = view.advisories.filter((advisory) => advisory.affectsShown);
    return html`<section class="install-section" aria-labelledby="install-heading">
<h2 id="install-heading">Install</h2>
<div class="warning risk-high" role="note">
<p><strong>Do not install ${name}@${shown.version}:</strong> it was yanked ${dateTime(shown.yanked.at, now)} (${shown.yanked.reason})${
      covering.length > 0
        ? html`, and ${counted(covering.length, "advisory covers", "advisories cover")} it:`
        : "."
    }</p>
${covering.length > 0 ? html`<ul>${covering.map((advisory) => html`<li>${advisory.severity}: ${advisory.text}</li>`)}</ul>` : ""}
${
  latest !== undefined && latest !== shown.version
    ? html`<p>Install <a href="${versionHref(name, latest)}">${latest}</a>, the latest version, instead.</p>`
    : html`<p>No version of ${name} is safe to install: look for another hook.</p>`
}
</div>
<details class="install-anyway">
<summary>The command for this version</summary>
${command}
</details>
</section>`;
  }
  return html`<section class="install-section" aria-labelledby="install-heading">
<h2 id="install-heading">Install</h2>
<div class="install">
${command}
<button type="button" data-copy="install-line" data-status="copy-status" hidden>Copy</button>
<span class="copy-status" id="copy-status" role="status"></span>
</div>
<p class="meta">${
    shown.capabilities.length === 0
      ? "It asks for no capabilities, so there is nothing to grant."
      : html`Each <code>--grant</code> gives it one capability it asks for (see what it can touch); without them, where no one answers the question (CI, a script), it runs with none. Leave one out to withhold it.`
  }</p>
</section>`;
}

function capabilityList(shown: VersionRecord): SafeHtml {
  const { lines, risk } = describeCapabilities(shown.capabilities);
  return html`<section aria-labelledby="capabilities-heading">
<h2 id="capabilities-heading">What it can touch</h2>
<p>Risk level: ${riskBadge(risk)}</p>
${
  lines.length === 0
    ? html`<p>It asks for no capabilities: it sees only what the agent passes to it.</p>`
    : html`<ul class="lined">${lines.map(
        (line) => html`<li>${riskBadge(line.risk)} <span>${line.text}</span> <code>${line.grant}</code></li>`,
      )}</ul>`
}
</section>`;
}

function hookFacts({ manifest, shown }: PackageView): SafeHtml {
  const { events, matcher, priority } = manifest.hookyard;
  return html`<section aria-labelledby="hooks-heading">
<h2 id="hooks-heading">What it hooks</h2>
<dl class="facts">
<dt>Runs</dt>
<dd><ul>${events.map((point) => html`<li>${describePoint(point)} (<code>${point}</code>)</li>`)}</ul></dd>
${
  Object.keys(matcher).length > 0
    ? html`<dt>Only when</dt><dd><ul>${Object.entries(matcher).map(
        ([field, pattern]) => html`<li><code>${field}</code> matches <code>${pattern}</code></li>`,
      )}</ul></dd>`
    : ""
}
<dt>May</dt>
<dd>${
    shown.effects.length === 0
      ? "only observe: it asks for no effects"
      : html`<ul>${shown.effects.map((effect) => html`<li>${describeEffect(effect)} (<code>${effect}</code>)</li>`)}</ul>`
  }</dd>
${priority === undefined ? "" : html`<dt>Priority</dt><dd>${priority}</dd>`}
</dl>
</section>`;
}

function advisoryList({ advisories, shown }: PackageView, now: Date): SafeHtml | string {
  if (advisories.length === 0) return "";
  return html`<section aria-labelledby="advisories-heading">
<h2 id="advisories-heading">Advisories</h2>
<ul class="lined">${advisories.map(
    (advisory) => html`<li class="advisory">
<span class="badge risk-${advisory.severity === "low" ? "medium" : "high"}">${advisory.severity}</span>
<span>${advisory.text}</span>
<span class="meta">versions <code>${advisory.range}</code>, ${
      advisory.affectsShown ? html`<strong>including ${shown.version}</strong>` : `not ${shown.version}`
    }; published ${dateTime(advisory.createdAt, now)}</span>
</li>`,
  )}</ul>
</section>`;
}

function versionList({ name, versions, shown }: PackageView, now: Date): SafeHtml {
  return html`<section aria-labelledby="versions-heading">
<h2 id="versions-heading">Versions</h2>
<div class="table-scroll">
<table class="versions">
<thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">By</th></tr></thead>
<tbody>${versions.map(
    (v) => html`<tr>
<th scope="row"><a href="${versionHref(name, v.version)}"${v.version === shown.version ? html` aria-current="page"` : ""}>${v.version}</a>${versionMarks(v)}</th>
<td>${dateTime(v.publishedAt, now)}</td>
<td>${v.publishedBy}</td>
</tr>`,
  )}</tbody>
</table>
</div>
</section>`;
}

function versionMarks(v: VersionRecord): SafeHtml | string {
  const marks = [
    v.prerelease ? html` <span class="badge">prerelease</span>` : "",
    v.yanked ? html` <span class="badge risk-high" title="${v.yanked.reason}">yanked</span>` : "",
    v.deprecated
      ? html` <span class="badge risk-medium" title="${v.deprecated.message}">deprecated</span>`
      : "",
  ];
  return html`${marks}`;
}

function detailList(view: PackageView, now: Date): SafeHtml {
  const { manifest, shown, name } = view;
  return html`<section aria-labelledby="details-heading">
<h2 id="details-heading">Details</h2>
<dl class="facts">
<dt>Owners</dt><dd>${
    view.owners.length === 0
      ? "none"
      : view.owners.map(
          (owner, i) => html`${i > 0 ? ", " : ""}<a href="${browseHref({ owner })}">${owner}</a>`,
        )
  }</dd>
<dt>Downloads</dt><dd>${counted(view.downloads, "download", "downloads")} (all versions)</dd>
<dt>Last published</dt><dd>${dateTime(view.lastPublishedAt, now)}</dd>
${manifest.license ? html`<dt>License</dt><dd>${manifest.license}</dd>` : ""}
${manifest.repository ? html`<dt>Repository</dt><dd>${outboundLink(manifest.repository)}</dd>` : ""}
${manifest.homepage ? html`<dt>Homepage</dt><dd>${outboundLink(manifest.homepage)}</dd>` : ""}
${
  manifest.keywords.length > 0
    ? html`<dt>Keywords</dt><dd>${manifest.keywords.map(
        (keyword, i) => html`${i > 0 ? ", " : ""}<a href="${browseHref({ keyword })}">${keyword}</a>`,
      )}</dd>`
    : ""
}
${
  view.pinned
    ? html`<dt>Integrity</dt><dd><code>${shown.integrity}</code></dd>
<dt>Signature key</dt><dd><code>${shown.keyId}</code></dd>
<dt>Size</dt><dd>${counted(shown.size, "byte", "bytes")}</dd>
<dt>Tarball</dt><dd><a href="${tarballPath(name, shown.version)}">download</a></dd>`
    : ""
}
</dl>
</section>`;
}

/** A publisher's URL: a link only when it is http(s), else shown as text. */
function outboundLink(text: string): SafeHtml {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  return url && (url.protocol === "https:" || url.protocol === "http:")
    ? html`<a href="${url.href}" rel="nofollow noopener noreferrer ugc">${text}</a>`
    : html`${text}`;
}
