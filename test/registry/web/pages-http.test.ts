import { describe, expect, it } from "vitest";
import { type Answer, hookPackage, publish, startRegistry, type TestRegistry, tokenFor } from "../helpers.js";

const pageCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const text = (answer: Answer) => answer.bytes.toString("utf8");

/** Asserts an HTML page with the pages' CSP and no-cache, and returns its markup. */
function htmlPage(answer: Answer, status = 200): string {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(answer.headers.get("content-security-policy")).toBe(pageCsp);
  expect(answer.headers.get("cache-control")).toBe("no-cache");
  expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
  const markup = text(answer);
  expect(markup.startsWith("<!doctype html>")).toBe(true);
  expect(markup).not.toMatch(/\bat \S+ \(|\.ts:\d+/); // no stack trace
  return markup;
}

async function seed(reg: TestRegistry, specs: Array<Parameters<typeof hookPackage>[0]>) {
  for (const spec of specs) {
    const version = spec.version ?? "1.0.0";
    const answer = await publish(reg, reg.admin, await hookPackage(spec), spec.name, version);
    expect(answer.status, text(answer)).toBe(201);
  }
}

/** Card names in a listing, in order. */
const cardNames = (markup: string) =>
  [...markup.matchAll(/<h3><a href="\/packages\/([^"]+)">/g)].map((m) => m[1]);

describe("web pages over HTTP", () => {
  it("every page and error page carries the strict CSP, and the JSON API keeps helmet's", async () => {
    const reg = await startRegistry();
    await seed(reg, [{ name: "guard" }]);
    htmlPage(await reg.call("/"));
    htmlPage(await reg.call("/?q=guard"));
    htmlPage(await reg.call("/packages/guard"));
    htmlPage(await reg.call("/packages/guard/v/1.0.0"));
    htmlPage(await reg.call("/packages/does-not-exist"), 404);
    htmlPage(await reg.call("/packages/guard/v/9.9.9"), 404);
    htmlPage(await reg.call("/packages/NOT_VALID"), 400);
    htmlPage(await reg.call("/?page=0"), 400);
    const api = await reg.call("/v1/packages/guard");
    expect(api.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(api.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("an unknown package is a 404 page that names it; an unknown version names both", async () => {
    const reg = await startRegistry();
    await seed(reg, [{ name: "guard" }]);
    const missing = htmlPage(await reg.call("/packages/does-not-exist"), 404);
    expect(missing).toContain("<h1>Not found</h1>");
    expect(missing).toContain("There is no package does-not-exist in this registry.");
    expect(htmlPage(await reg.call("/packages/guard/v/2.0.0"), 404)).toContain(
      "There is no version 2.0.0 of guard.",
    );
    expect(htmlPage(await reg.call("/packages/guard/extra/path"), 404)).toContain("<h1>Not found</h1>");
    htmlPage(await reg.call("/static/nothing.css"), 404);
  });

  it("a browser asking for an unknown address outside the API gets the 404 page; API clients get JSON", async () => {
    const reg = await startRegistry();
    const browser = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    const page = htmlPage(await reg.call("/no/such/page?x=1", { headers: browser }), 404);
    expect(page).toContain("There is no page /no/such/page here.");
    expect(page).toContain('<a href="/">');
    const api = await reg.call("/v1/no-such-route", { headers: browser });
    expect(api.status).toBe(404);
    expect(api.json.error.code).toBe("REG_ERR_NOT_FOUND");
    const curl = await reg.call("/no/such/page", { headers: { accept: "*/*" } });
    expect(curl.status).toBe(404);
    expect(curl.json.error.code).toBe("REG_ERR_NOT_FOUND");
  });

  it("bad input is a 400 page saying what is wrong, never a stack trace", async () => {
    const reg = await startRegistry();
    const cases: Array<[string, string]> = [
      ["/packages/Upper", "is not a valid package name"],
      ["/packages/a%20b", "is not a valid package name"],
      ["/packages/guard/v/not-semver", "is not a valid semver version"],
      ["/?page=abc", "The page must be a number."],
      ["/?page=1.5", "The page must be a whole number."],
      ["/?page=100000", "Results stop at page 501"],
      [`/?q=${"a".repeat(300)}`, "The search text is at most 256 characters."],
      ["/?q=a&q=b", "Give one search text (q)."],
    ];
    for (const [path, message] of cases) {
      expect(htmlPage(await reg.call(path), 400), path).toContain(message);
    }
  });

  it("an unexpected failure is a 500 page with the request id and no details", async () => {
    const reg = await startRegistry();
    await reg.app.registry.store.close();
    const answer = await reg.call("/packages/guard");
    const markup = htmlPage(answer, 500);
    expect(markup).toContain("Something went wrong");
    expect(markup).toContain(answer.headers.get("x-request-id"));
    expect(markup).not.toMatch(/database|sqlite/i);
  });

  it("escapes hostile package fields everywhere they are shown", async () => {
    const reg = await startRegistry();
    const hostile = `<script>window.__pwned=1</script><img src=x onerror=alert(1)>"'`;
    await seed(reg, [
      {
        name: "evil",
        description: hostile,
        keywords: [hostile.slice(0, 60)],
        manifest: {
          license: hostile,
          homepage: "javascript:alert(1)",
          repository: { type: "git", url: `https://example.com/"><script>x</script>` },
          hookyard: {
            main: "dist/hook.js",
            events: ["tool_before"],
            matcher: { tool: hostile },
            capabilities: { fs: { read: ["<b>docs</b>"] } },
            effects: [],
          },
        },
      },
    ]);
    await reg.call("/v1/packages/evil/1.0.0/yank", {
      method: "POST",
      token: reg.admin,
      json: { reason: hostile },
    });
    for (const path of [
      "/?q=evil",
      "/packages/evil",
      "/packages/evil/v/1.0.0",
      `/?q=${encodeURIComponent(hostile)}`,
    ]) {
      const markup = htmlPage(await reg.call(path));
      expect(markup, path).not.toContain("<script>window");
      expect(markup, path).not.toContain("<img");
      expect(markup, path).not.toContain("<b>docs");
      expect(markup, path).not.toContain('href="javascript:');
      expect(markup, path).not.toMatch(
        /<script(?! src="\/static\/copy-button\.[0-9a-f]+\.js" defer><\/script>)/,
      );
    }
    const page = text(await reg.call("/packages/evil"));
    expect(page).toContain("Every version of this package is yanked.");
    expect(page).toContain("&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    expect(page).toContain("reads files under &lt;b&gt;docs&lt;/b&gt;");
    expect(page).toContain("<dt>Homepage</dt><dd>javascript:alert(1)</dd>");
    expect(page).toContain('href="https://example.com/%22%3E%3Cscript%3Ex%3C/script%3E"');
    const search = text(await reg.call(`/?q=${encodeURIComponent(hostile)}`));
    expect(search).toContain(
      'value="&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;"',
    );
  });

  it("pages through results 20 at a time, keeping the query in the links", async () => {
    const reg = await startRegistry();
    const names = Array.from({ length: 23 }, (_, i) => `audit-${String(i).padStart(2, "0")}`);
    await seed(
      reg,
      names.map((name) => ({ name, description: "writes an audit log" })),
    );
    const first = htmlPage(await reg.call("/?q=audit"));
    expect(first).toContain("23 hooks match “audit”");
    expect(cardNames(first)).toEqual(names.slice(0, 20));
    expect(first).toContain("Page 1 of 2");
    expect(first).toContain('<a href="/?q=audit&amp;page=2" rel="next">Next page</a>');
    expect(first).not.toContain('rel="prev"');
    const second = htmlPage(await reg.call("/?q=audit&page=2"));
    expect(cardNames(second)).toEqual(names.slice(20));
    expect(second).toContain('<a href="/?q=audit" rel="prev">Previous page</a>');
    expect(second).not.toContain('rel="next"');
    expect(htmlPage(await reg.call("/?q=audit&page=3"))).toContain("There are only 2 pages of results.");

    // Without a query: every package by downloads, recently published on the first page only.
    const front = htmlPage(await reg.call("/"));
    expect(front).toContain("Recently published");
    expect(front).toContain('<a href="/?page=2" rel="next">Next page</a>');
    const frontSecond = htmlPage(await reg.call("/?page=2"));
    expect(frontSecond).not.toContain("Recently published");
    expect(cardNames(frontSecond)).toHaveLength(3);
  });

  it("the front page lists popular packages by downloads and the most recently published", async () => {
    let minute = 0;
    const reg = await startRegistry({ now: () => new Date(Date.UTC(2026, 0, 1, 12, minute++)) });
    await seed(reg, [{ name: "old-popular" }, { name: "middle" }, { name: "newest" }]);
    for (let i = 0; i < 3; i++) await reg.call("/v1/packages/old-popular/1.0.0/tarball");
    await reg.app.registry.downloads.flush();
    const front = htmlPage(await reg.call("/"));
    const [recent, popular] = front.split('id="popular-heading"');
    expect(cardNames(recent ?? "")).toEqual(["newest", "middle", "old-popular"]);
    expect(cardNames(popular ?? "")).toEqual(["old-popular", "middle", "newest"]);
    expect(popular).toContain("3 downloads");
    // The registry's clock moves a minute a call: the page says how long ago, the tooltip exactly when.
    expect(popular).toMatch(
      /updated <time datetime="2026-01-01T12:0\d:00\.000Z" title="2026-01-01 12:0\d UTC">\d+ minutes ago<\/time>/,
    );
  });

  it("scoped names work in both URL forms, and listings link to the readable one", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const answer = await publish(reg, alice, await hookPackage({ name: "@acme/guard" }), "@acme/guard");
    expect(answer.status).toBe(201);
    expect(cardNames(htmlPage(await reg.call("/?q=guard")))).toEqual(["@acme/guard"]);
    for (const path of ["/packages/@acme/guard", "/packages/%40acme%2Fguard"]) {
      expect(htmlPage(await reg.call(path)), path).toContain("<h1>@acme/guard</h1>");
    }
    for (const path of ["/packages/@acme/guard/v/1.0.0", "/packages/%40acme%2Fguard/v/1.0.0"]) {
      expect(htmlPage(await reg.call(path)), path).toContain("hookyard install @acme/guard@1.0.0 --sandbox");
    }
    expect(htmlPage(await reg.call("/packages/@acme/guard"))).toContain(
      '<a href="/packages/@acme/guard/v/1.0.0" aria-current="page">1.0.0</a>',
    );
    expect(htmlPage(await reg.call("/packages/@acme"), 400)).toContain("is not a valid package name");
    htmlPage(await reg.call("/packages/@acme/other"), 404);
  });

  it("a page answers 304 to its ETag until something it shows changes", async () => {
    const reg = await startRegistry();
    await seed(reg, [{ name: "guard" }]);
    for (const path of ["/", "/?q=guard", "/packages/guard", "/packages/guard/v/1.0.0"]) {
      const first = await reg.call(path);
      const etag = first.headers.get("etag") ?? "";
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      const again = await reg.call(path, { headers: { "if-none-match": etag } });
      expect(again.status, path).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.get("content-security-policy")).toBe(pageCsp);
      expect((await reg.call(path, { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    }
    const before = (await reg.call("/packages/guard")).headers.get("etag") ?? "";
    await seed(reg, [{ name: "guard", version: "1.1.0" }]);
    const after = await reg.call("/packages/guard", { headers: { "if-none-match": before } });
    expect(after.status).toBe(200);
    expect(text(after)).toContain("Version 1.1.0 (latest)");
  });

  it("serves the stylesheet and script under content-hashed names, cached for good", async () => {
    const reg = await startRegistry();
    const front = text(await reg.call("/"));
    const css = front.match(/href="(\/static\/hookyard\.[0-9a-f]{12}\.css)"/)?.[1];
    const js = front.match(/src="(\/static\/copy-button\.[0-9a-f]{12}\.js)"/)?.[1];
    expect(css && js).toBeTruthy();
    const style = await reg.call(css as string);
    expect(style.status).toBe(200);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(style.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(text(style)).toContain(".risk-high");
    const script = await reg.call(js as string);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(text(script)).toContain("navigator.clipboard.writeText");
    htmlPage(await reg.call((css as string).replace(/\.[0-9a-f]{12}\./, ".000000000000.")), 404);
  });

  it("the package page shows capabilities with risk, hooks, effects, versions with marks, owners and advisories", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const manifest = (capabilities: object, effects: string[]) => ({
      license: "MIT",
      repository: "https://github.com/acme/guard",
      hookyard: {
        main: "dist/hook.js",
        events: ["tool_before", "turn_before"],
        matcher: { tool: "^bash$" },
        priority: 10,
        capabilities,
        effects,
      },
    });
    for (const [version, caps, effects] of [
      ["1.0.0", { fs: { read: ["docs"] } }, ["block"]],
      [
        "1.1.0",
        { fs: { read: ["docs"] }, net: ["api.example.com:443"], process: ["git"] },
        ["block", "rewrite"],
      ],
      ["1.2.0", { fs: { read: ["docs"] } }, ["block"]],
      ["2.0.0-beta.1", {}, []],
    ] as const) {
      const tarball = await hookPackage({ name: "guard", version, manifest: manifest(caps, [...effects]) });
      expect((await publish(reg, alice, tarball, "guard", version)).status).toBe(201);
    }
    const post = (path: string, json: object) => reg.call(path, { method: "POST", token: reg.admin, json });
    await post("/v1/packages/guard/1.2.0/yank", { reason: "broke the shell" });
    await post("/v1/packages/guard/1.0.0/deprecate", { message: "use 1.1" });
    await post("/v1/advisories", { package: "guard", range: "<1.1.0", severity: "high", text: "reads .env" });

    const page = htmlPage(await reg.call("/packages/guard"));
    expect(page).toContain("Version 1.1.0 (latest)");
    expect(page).toContain(
      "hookyard install guard@1.1.0 --sandbox --grant fs.read:docs --grant net:api.example.com:443 --grant process:git --grant rewrite",
    );
    expect(page).toContain('Risk level: <span class="badge risk-level risk-high">high risk</span>');
    expect(page).toContain("<span>runs git</span> <code>process:git</code>");
    expect(page).toContain("<span>connects to api.example.com:443</span>");
    expect(page).toContain("<span>reads files under docs</span>");
    expect(page).toContain("can rewrite what it sees");
    // An old package's bare rewrite (the effect without named fields) is every field: high risk.
    expect(page).toContain("<span>can rewrite anything it sees, at every point");
    expect(page).toContain("before a tool runs (<code>tool_before</code>)");
    expect(page).toContain("when you submit a prompt (<code>turn_before</code>)");
    expect(page).toContain("<code>tool</code> matches <code>^bash$</code>");
    expect(page).toContain("<dt>Priority</dt><dd>10</dd>");
    expect(page).toContain('<dt>Owners</dt><dd><a href="/?owner=alice">alice</a></dd>');
    expect(page).toContain('href="https://github.com/acme/guard" rel="nofollow noopener noreferrer ugc"');
    expect(page).toContain("reads .env");
    expect(page).toContain("not 1.1.0");
    expect(page).not.toContain("<dt>Integrity</dt>");
    const versionRows = [...page.matchAll(/<th scope="row"><a href="\/packages\/guard\/v\/([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(versionRows).toEqual(["2.0.0-beta.1", "1.2.0", "1.1.0", "1.0.0"]);
    expect(page).toContain('1.2.0</a> <span class="badge risk-high" title="broke the shell">yanked</span>');
    expect(page).toContain('1.0.0</a> <span class="badge risk-medium" title="use 1.1">deprecated</span>');
    expect(page).toContain('2.0.0-beta.1</a> <span class="badge">prerelease</span>');

    const old = htmlPage(await reg.call("/packages/guard/v/1.0.0"));
    expect(old).toContain("hookyard install guard@1.0.0 --sandbox --grant fs.read:docs</code>");
    expect(old).toContain('the latest is <a href="/packages/guard">1.1.0</a>');
    expect(old).toContain("Deprecated: use 1.1");
    expect(old).toContain("<strong>including 1.0.0</strong>");
    expect(old).toContain('Risk level: <span class="badge risk-level risk-low">low risk</span>');
    expect(old).not.toContain("runs git");
    const meta = (await reg.call("/v1/packages/guard")).json.versions["1.0.0"];
    expect(old).toContain(`<dt>Integrity</dt><dd><code>${meta.integrity}</code></dd>`);
    expect(old).toContain(`<dt>Signature key</dt><dd><code>${meta.keyId}</code></dd>`);
    const yanked = htmlPage(await reg.call("/packages/guard/v/1.2.0"));
    expect(yanked).toMatch(/This version was yanked <time [^>]*>just now<\/time>: broke the shell/);
    expect(yanked).toContain("<strong>Do not install guard@1.2.0:</strong>");
    const beta = htmlPage(await reg.call("/packages/guard/v/2.0.0-beta.1"));
    expect(beta).toContain("It asks for no capabilities");
    expect(beta).toContain("only observe: it asks for no effects");
  });

  it("a yanked version with an advisory warns, names the advisory and the version to use, and offers no Copy button", async () => {
    const reg = await startRegistry();
    await seed(reg, [
      { name: "guard", version: "1.0.0" },
      { name: "guard", version: "1.1.0" },
    ]);
    await reg.call("/v1/packages/guard/1.0.0/yank", {
      method: "POST",
      token: reg.admin,
      json: { reason: "leaks tokens" },
    });
    await reg.call("/v1/advisories", {
      method: "POST",
      token: reg.admin,
      json: { package: "guard", range: "<1.1.0", severity: "high", text: "sends .env to a remote host" },
    });
    const page = htmlPage(await reg.call("/packages/guard/v/1.0.0"));
    const install = page.slice(page.indexOf('id="install-heading"'), page.indexOf('id="readme-heading"'));
    expect(install).toContain("<strong>Do not install guard@1.0.0:</strong> it was yanked");
    expect(install).toContain("(leaks tokens), and 1 advisory covers it:");
    expect(install).toContain("<li>high: sends .env to a remote host</li>");
    expect(install).toContain(
      'Install <a href="/packages/guard/v/1.1.0">1.1.0</a>, the latest version, instead.',
    );
    expect(install).not.toContain("data-copy");
    expect(install).toMatch(
      /<details class="install-anyway">\s*<summary>The command for this version<\/summary>/,
    );
    // The latest version, not yanked, keeps its Copy button.
    expect(htmlPage(await reg.call("/packages/guard"))).toContain('data-copy="install-line"');
  });

  it("rewrite grants that can change what a tool runs read as high risk, a redaction as low", async () => {
    const reg = await startRegistry();
    const hookyard = (capabilities: object) => ({
      hookyard: {
        main: "dist/hook.js",
        events: ["tool_before", "tool_after"],
        capabilities,
        effects: ["rewrite"],
      },
    });
    await seed(reg, [
      { name: "args-rewriter", manifest: hookyard({ rewrite: ["tool_before.args"] }) },
      { name: "timeouts", manifest: hookyard({ rewrite: ["tool_before.args.timeout"] }) },
      { name: "redactor", manifest: hookyard({ redact: ["tool_after.result"] }) },
    ]);
    const args = htmlPage(await reg.call("/packages/args-rewriter"));
    expect(args).toContain('Risk level: <span class="badge risk-level risk-high">high risk</span>');
    expect(args).toContain(
      "<span>can rewrite the arguments of tool calls (tool_before.args), and so change what a tool runs (a command, a file path, what is written)</span> <code>rewrite:tool_before.args</code>",
    );
    const timeouts = htmlPage(await reg.call("/packages/timeouts"));
    expect(timeouts).toContain('Risk level: <span class="badge risk-level risk-medium">medium risk</span>');
    expect(timeouts).toContain(
      "<span>can rewrite the timeout argument of tool calls (tool_before.args.timeout)</span>",
    );
    const redactor = htmlPage(await reg.call("/packages/redactor"));
    expect(redactor).toContain('Risk level: <span class="badge risk-level risk-low">low risk</span>');
    expect(redactor).toContain(
      "<span>can hide text in tool results (tool_after.result), only replacing it with markers such as [redacted]</span> <code>redact:tool_after.result</code>",
    );
  });

  it("HEAD answers like GET without a body", async () => {
    const reg = await startRegistry();
    const head = await reg.call("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-security-policy")).toBe(pageCsp);
    expect(head.bytes.length).toBe(0);
  });
});
