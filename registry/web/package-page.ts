import { describeCapabilities, describeEffect, describePoint } from "../../package/capability-wording.js";
import { tarballPath } from "../documents/package-document.js";
import type { VersionRecord } from "../store.js";
import { counted, dateTime, riskBadge } from "./fragments.js";
import { html, type SafeHtml } from "./html.js";
import { layout } from "./layout.js";
import type { PackageView } from "./package-view.js";
import { packageHref, versionHref } from "./paths.js";
import type { ReadmeRenderer } from "./readme-cache.js";

/**
 * /packages/:name and /packages/:name/v/:version: what a person needs to judge a hook before
 * installing it, the riskiest facts first (what it can touch, advisories), then its readme,
 * versions and provenance.
 */
export function packagePage(view: PackageView, readme: ReadmeRenderer): SafeHtml {
  const { name, shown, pinned } = view;
  const main = html`<article class="package">
<h1>${name}</h1>
<p class="version-line">Version ${shown.version}${versionStatus(view)}</p>
${view.manifest.description ? html`<p class="lead">${view.manifest.description}</p>` : ""}
${notices(view)}
${installLine(name, pinned ? shown.version : undefined)}
${capabilityList(shown)}
${hookFacts(view)}
${advisoryList(view)}
<section aria-labelledby="readme-heading">
<h2 id="readme-heading">Readme</h2>
${shown.readme === null ? html`<p>This version has no readme.</p>` : html`<div class="readme">${readme(shown)}</div>`}
</section>
${versionTable(view)}
${detailList(view)}
</article>`;
  return layout({ title: pinned ? `${name}@${shown.version}` : name, main });
}

function versionStatus({ name, shown, latest, pinned }: PackageView): SafeHtml | string {
  if (shown.version === latest) return " (latest)";
  if (latest === undefined) return "";
  return pinned ? html` · the latest is <a href="${packageHref(name)}">${latest}</a>` : "";
}

function notices({ shown, versions }: PackageView): SafeHtml {
  return html`${
    shown.yanked
      ? html`<p class="notice risk-high">This version was yanked on ${dateTime(shown.yanked.at)}: ${shown.yanked.reason}</p>`
      : ""
  }${
    shown.deprecated ? html`<p class="notice risk-medium">Deprecated: ${shown.deprecated.message}</p>` : ""
  }${
    versions.every((v) => v.yanked)
      ? html`<p class="notice risk-high">Every version of this package is yanked.</p>`
      : ""
  }`;
}

function installLine(name: string, version: string | undefined): SafeHtml {
  const line = `hookyard install ${version === undefined ? name : `${name}@${version}`} --sandbox`;
  return html`<section aria-labelledby="install-heading">
<h2 id="install-heading">Install</h2>
<div class="install">
<label class="visually-hidden" for="install-line">Install command</label>
<input class="install-line" id="install-line" type="text" readonly value="${line}" spellcheck="false">
<button type="button" data-copy="install-line" data-status="copy-status" hidden>Copy</button>
<span class="copy-status" id="copy-status" role="status"></span>
</div>
<p class="meta">In the sandbox it can use only the capabilities you grant, each no more than it asks for below.</p>
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

function advisoryList({ advisories, shown }: PackageView): SafeHtml | string {
  if (advisories.length === 0) return "";
  return html`<section aria-labelledby="advisories-heading">
<h2 id="advisories-heading">Advisories</h2>
<ul class="lined">${advisories.map(
    (advisory) => html`<li class="advisory">
<span class="badge risk-${advisory.severity === "low" ? "medium" : "high"}">${advisory.severity}</span>
<span>${advisory.text}</span>
<span class="meta">versions <code>${advisory.range}</code>, ${
      advisory.affectsShown ? html`<strong>including ${shown.version}</strong>` : `not ${shown.version}`
    }; published ${dateTime(advisory.createdAt)}</span>
</li>`,
  )}</ul>
</section>`;
}

function versionTable({ name, versions, shown }: PackageView): SafeHtml {
  return html`<section aria-labelledby="versions-heading">
<h2 id="versions-heading">Versions</h2>
<div class="table-scroll">
<table>
<thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">By</th><th scope="col">Status</th></tr></thead>
<tbody>${versions.map(
    (v) => html`<tr>
<th scope="row"><a href="${versionHref(name, v.version)}"${v.version === shown.version ? html` aria-current="page"` : ""}>${v.version}</a></th>
<td>${dateTime(v.publishedAt)}</td>
<td>${v.publishedBy}</td>
<td>${versionMarks(v)}</td>
</tr>`,
  )}</tbody>
</table>
</div>
</section>`;
}

function versionMarks(v: VersionRecord): SafeHtml | string {
  const marks = [
    v.prerelease ? html`<span class="badge">prerelease</span>` : "",
    v.yanked ? html`<span class="badge risk-high" title="${v.yanked.reason}">yanked</span>` : "",
    v.deprecated
      ? html`<span class="badge risk-medium" title="${v.deprecated.message}">deprecated</span>`
      : "",
  ];
  return html`${marks}`;
}

function detailList(view: PackageView): SafeHtml {
  const { manifest, shown, name } = view;
  return html`<section aria-labelledby="details-heading">
<h2 id="details-heading">Details</h2>
<dl class="facts">
<dt>Owners</dt><dd>${view.owners.join(", ") || "none"}</dd>
<dt>Downloads</dt><dd>${counted(view.downloads, "download", "downloads")} (all versions)</dd>
<dt>Last published</dt><dd>${dateTime(view.lastPublishedAt)}</dd>
${manifest.license ? html`<dt>License</dt><dd>${manifest.license}</dd>` : ""}
${manifest.repository ? html`<dt>Repository</dt><dd>${outboundLink(manifest.repository)}</dd>` : ""}
${manifest.homepage ? html`<dt>Homepage</dt><dd>${outboundLink(manifest.homepage)}</dd>` : ""}
${manifest.keywords.length > 0 ? html`<dt>Keywords</dt><dd>${manifest.keywords.join(", ")}</dd>` : ""}
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
