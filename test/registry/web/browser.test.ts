import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookPackage, publish, startRegistry, type TestRegistry, tokenFor } from "../helpers.js";

/**
 * The acceptance of the marketplace pages, in Debian's chromium driven by playwright-core: search,
 * judge and copy the install line of a real published package; a hostile readme that does nothing;
 * a phone-width screen without horizontal scrolling. CI installs chromium; without it this fails.
 * Code run in the page is written as strings: the tests compile without the DOM's types.
 */

const executablePath = "/usr/bin/chromium";
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const screenshots = fileURLToPath(new URL("../../../test-artifacts/screenshots/", import.meta.url));
const stepTimeoutMs = 10_000;

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(executablePath)) {
    throw new Error(
      `the browser tests need Debian's chromium at ${executablePath}: install it with \`apt-get install -y chromium\``,
    );
  }
  // Each launch gets a fresh temporary profile (user-data-dir) from playwright, removed on close.
  browser = await chromium.launch({ executablePath, args: chromiumArgs, timeout: 30_000 });
  await mkdir(screenshots, { recursive: true });
}, 40_000);

afterAll(async () => {
  await browser?.close();
});

/** A server that only counts requests: the readme points its image here. */
async function countingServer(): Promise<{ server: Server; url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { "content-type": "image/png" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, hits: () => hits };
}

// Long, with no place to break; fastify refuses path params over 100 characters, so not 214.
const longName = `@acme/readme-trap-${"x".repeat(70)}`;

function hostileReadme(trap: string): string {
  return `# Readme trap

<script>window.__pwned = "script"</script>

<img src=${trap}/raw.png onerror="window.__pwned = 'onerror'">

![tracking pixel](${trap}/x.png)

[click me](javascript:window.__pwned='link')

<a href="javascript:window.__pwned='html-link'">html link</a>

<iframe src="${trap}/frame"></iframe>

<link rel="stylesheet" href="${trap}/style.css">

A very long word: ${"y".repeat(400)}

\`\`\`sh
${"echo this-line-is-far-wider-than-a-phone ".repeat(12)}
\`\`\`

| ${Array.from({ length: 12 }, (_, i) => `column${i}`).join(" | ")} |
|${" --- |".repeat(12)}
| ${Array.from({ length: 12 }, (_, i) => `value${i}`).join(" | ")} |
`;
}

/** Publishes the three packages over HTTP with an owner's publish token. */
async function seed(reg: TestRegistry, trap: string): Promise<void> {
  const alice = await tokenFor(reg, "alice");
  const packages = [
    {
      name: "shell-guard",
      description: "blocks rm -rf and other destructive shell commands",
      manifest: {
        hookyard: {
          main: "dist/hook.js",
          events: ["tool_before"],
          matcher: { tool: "^bash$" },
          capabilities: { fs: { read: ["src"] }, process: ["git"] },
          effects: ["block"],
        },
      },
    },
    { name: "redact-secrets", description: "hides AWS keys in tool output" },
    {
      name: longName,
      description: `a readme that tries everything ${"z".repeat(120)}`,
      files: { "README.md": hostileReadme(trap) },
    },
  ];
  for (const spec of packages) {
    const answer = await publish(reg, alice, await hookPackage(spec), spec.name);
    expect(answer.status, answer.bytes.toString()).toBe(201);
  }
}

interface Recorded {
  page: Page;
  context: BrowserContext;
  requests: string[];
  cspViolations: string[];
}

async function openPage(options: Parameters<Browser["newContext"]>[0] = {}): Promise<Recorded> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(stepTimeoutMs);
  const page = await context.newPage();
  const requests: string[] = [];
  const cspViolations: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  return { page, context, requests, cspViolations };
}

const origin = (url: string) => new URL(url).origin;

describe("the marketplace in a browser", () => {
  it("search from /, open a result, judge its capabilities and risk, copy the install line", async () => {
    const reg = await startRegistry();
    const trap = await countingServer();
    try {
      await seed(reg, trap.url);
      const { page, context, requests, cspViolations } = await openPage();
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: reg.url });
      await page.goto(`${reg.url}/`);
      await expect.poll(() => page.locator("h1").textContent()).toBe("Hooks for AI agents");
      await page.screenshot({ path: `${screenshots}front-page.png`, fullPage: true });

      await page.getByLabel("Search hooks").fill("shell");
      await page.getByLabel("Search hooks").press("Enter");
      await page.waitForURL(`${reg.url}/?q=shell`);
      await expect.poll(() => page.locator("#results-heading").textContent()).toBe("1 hook matches “shell”");
      await page.getByRole("link", { name: "shell-guard" }).click();
      await page.waitForURL(`${reg.url}/packages/shell-guard`);

      const capabilities = page.locator("section", { has: page.locator("#capabilities-heading") });
      expect(await capabilities.locator("p").first().textContent()).toBe("Risk level: high risk");
      const lines = await capabilities.locator("li").allInnerTexts();
      expect(lines.map((line) => line.replace(/\s+/g, " ").trim())).toEqual([
        "high risk runs git process:git",
        "low risk reads files under src fs.read:src",
      ]);
      await page.screenshot({ path: `${screenshots}package-page.png`, fullPage: true });

      await page.getByRole("button", { name: "Copy" }).click();
      await expect.poll(() => page.locator("#copy-status").textContent()).toBe("Copied.");
      const copied = await page.evaluate<string>("navigator.clipboard.readText()");
      expect(copied).toBe(
        "hookyard install shell-guard@1.0.0 --sandbox --grant fs.read:src --grant process:git",
      );

      expect(requests.filter((url) => origin(url) !== reg.url)).toEqual([]);
      expect(cspViolations).toEqual([]);
      expect(trap.hits()).toBe(0);
      await context.close();
    } finally {
      trap.server.close();
    }
  }, 60_000);

  it("a hostile readme renders inert: no script runs, the javascript: link does nothing, nothing loads from elsewhere", async () => {
    const reg = await startRegistry();
    const trap = await countingServer();
    try {
      await seed(reg, trap.url);
      const { page, context, requests, cspViolations } = await openPage();
      const url = `${reg.url}/packages/${longName}`;
      await page.goto(url, { waitUntil: "load" });
      const readme = page.locator(".readme");
      await expect.poll(() => readme.locator("h3").textContent()).toBe("Readme trap");
      expect(await readme.locator("script, img, iframe, link, [onerror], [style]").count()).toBe(0);
      expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);

      await readme.getByText("click me").click();
      await readme.getByText("html link").click();
      // The remote image is a link to it, not a load: still nothing may have asked the trap server.
      expect(await readme.getByRole("link", { name: "[image: tracking pixel]" }).getAttribute("href")).toBe(
        `${trap.url}/x.png`,
      );
      await page.waitForTimeout(300);
      expect(page.url()).toBe(url);
      expect(await page.evaluate("window.__pwned")).toBeUndefined();

      expect(trap.hits()).toBe(0);
      expect(requests.length).toBeGreaterThan(2); // the page, its stylesheet and script
      expect(requests.filter((request) => origin(request) !== reg.url)).toEqual([]);
      expect(cspViolations).toEqual([]);
      await context.close();
    } finally {
      trap.server.close();
    }
  }, 60_000);

  it("a 375 px wide screen scrolls no page sideways, even with long names, words, code and tables", async () => {
    const reg = await startRegistry();
    const trap = await countingServer();
    try {
      await seed(reg, trap.url);
      const { page, context } = await openPage({ viewport: { width: 375, height: 800 }, isMobile: true });
      const overflow = () =>
        page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      for (const [path, shot] of [
        ["/", "front-page-375.png"],
        ["/?q=readme", "search-375.png"],
        [`/packages/${longName}`, "package-page-375.png"],
        [`/packages/${longName}/v/1.0.0`, "version-page-375.png"],
      ] as const) {
        await page.goto(`${reg.url}${path}`, { waitUntil: "load" });
        expect(await page.evaluate<number>("document.styleSheets.length"), path).toBe(1);
        expect(await overflow(), path).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `${screenshots}${shot}`, fullPage: true });
      }
      await context.close();
    } finally {
      trap.server.close();
    }
  }, 60_000);

  it("without JavaScript the install line is there to select, and the copy button stays hidden", async () => {
    const reg = await startRegistry();
    await publish(reg, reg.admin, await hookPackage({ name: "shell-guard" }), "shell-guard");
    const { page, context } = await openPage({ javaScriptEnabled: false });
    await page.goto(`${reg.url}/packages/shell-guard`);
    expect(await page.locator("#install-line").textContent()).toBe(
      "hookyard install shell-guard@1.0.0 --sandbox --grant fs.read:src --grant net:api.example.com:443",
    );
    expect(await page.getByRole("button", { name: "Copy" }).isHidden()).toBe(true);
    await page.getByLabel("Search hooks").fill("shell");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(`${reg.url}/?q=shell`);
    expect(await page.getByRole("link", { name: "shell-guard" }).count()).toBe(1);
    // Sort and filter are a plain form too.
    await page.getByLabel("Risk level").selectOption("high");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/[?&]risk=high/);
    expect(await page.locator("#results-heading").textContent()).toBe("0 hooks match “shell”, of high risk");
    await context.close();
  }, 60_000);
});

const day = 86_400_000;

/** The registry's clock: packages are published in the past, the pages are read now. */
interface Clock {
  at: number;
}

/** A catalogue to look at: a high-risk guard from three days ago, a low-risk reader, a yanked version with an advisory. */
async function layoutRegistry(): Promise<{ reg: TestRegistry; clock: Clock; now: number }> {
  const now = Date.now();
  const clock: Clock = { at: now - 3 * day };
  const reg = await startRegistry({ now: () => new Date(clock.at) });
  const alice = await tokenFor(reg, "alice");
  const bob = await tokenFor(reg, "bob");
  const readme = `# shell-guard\n\nBlocks destructive shell commands.\n\n${"A paragraph of the readme. ".repeat(40)}\n`;
  const items = [
    {
      token: alice,
      spec: {
        name: "shell-guard",
        description: "blocks rm -rf and other destructive shell commands",
        keywords: ["shell", "safety"],
        files: { "README.md": readme },
        manifest: {
          license: "MIT",
          hookyard: {
            main: "dist/hook.js",
            events: ["tool_before"],
            matcher: { tool: "^bash$" },
            capabilities: { fs: { read: ["src"] }, process: ["git"] },
            effects: ["block"],
          },
        },
      },
      after: 0,
    },
    {
      token: bob,
      spec: {
        name: "doc-reader",
        description: "adds the docs to the prompt",
        manifest: {
          hookyard: {
            main: "dist/hook.js",
            events: ["turn_before"],
            capabilities: { fs: { read: ["docs"] } },
            effects: ["inject"],
          },
        },
      },
      after: day,
    },
    { token: alice, spec: { name: "leaky", version: "1.0.0" }, after: day },
    { token: alice, spec: { name: "leaky", version: "1.1.0" }, after: 0 },
  ];
  for (const { token, spec, after } of items) {
    clock.at += after;
    const answer = await publish(reg, token, await hookPackage(spec), spec.name, spec.version);
    expect(answer.status, answer.bytes.toString()).toBe(201);
  }
  for (let i = 0; i < 3; i++) await reg.call("/v1/packages/doc-reader/1.0.0/tarball");
  await reg.app.registry.downloads.flush();
  const post = (path: string, json: object) => reg.call(path, { method: "POST", token: reg.admin, json });
  expect((await post("/v1/packages/leaky/1.0.0/yank", { reason: "sends tokens away" })).status).toBe(200);
  await post("/v1/advisories", {
    package: "leaky",
    range: "<1.1.0",
    severity: "high",
    text: "posts .env to a remote host",
  });
  clock.at = now;
  return { reg, clock, now };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return found;
}

const overflowOf = (page: Page) =>
  page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");

/** Rows of the listing as the browser shows them. */
const listedNames = (page: Page) => page.locator(".browse-results .card h3 a").allInnerTexts();

describe("the marketplace's layout at 1280 and 375 px", () => {
  const widths = [
    { width: 1280, height: 900, isMobile: false },
    { width: 375, height: 800, isMobile: true },
  ];
  const pages = [
    ["package", "/packages/shell-guard"],
    ["browse", "/?sort=name"],
    ["yanked", "/packages/leaky/v/1.0.0"],
  ] as const;

  it("a screenshot of each page at each width; none scrolls sideways, every install line shows whole", async () => {
    const { reg } = await layoutRegistry();
    for (const { width, height, isMobile } of widths) {
      const { page, context, requests } = await openPage({ viewport: { width, height }, isMobile });
      for (const [name, path] of pages) {
        await page.goto(`${reg.url}${path}`, { waitUntil: "load" });
        expect(await overflowOf(page), `${name} at ${width}`).toBeLessThanOrEqual(0);
        const lines = page.locator("pre.install-line:visible");
        for (let i = 0; i < (await lines.count()); i++) {
          // Wrapped, not cut: all of it inside its box and the box inside the screen.
          const line = lines.nth(i);
          expect(await line.evaluate((el) => el.scrollWidth - el.clientWidth), `${name} at ${width}`).toBe(0);
          const { x, width: w } = (await line.boundingBox()) as Box;
          expect(x + w, `${name} at ${width}`).toBeLessThanOrEqual(width);
        }
        await page.screenshot({ path: `${screenshots}${name}-${width}.png`, fullPage: true });
      }
      expect(requests.filter((url) => origin(url) !== reg.url)).toEqual([]);
      await context.close();
    }
  }, 60_000);

  it("at 1280 px the sidebar sits beside the main column, and the readme follows the install line", async () => {
    const { reg } = await layoutRegistry();
    const { page, context } = await openPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${reg.url}/packages/shell-guard`);
    const main = await box(page, ".package-main");
    const side = await box(page, ".package-side");
    expect(side.x).toBeGreaterThanOrEqual(main.x + main.width);
    expect(Math.abs(side.y - main.y)).toBeLessThan(40);
    // The page uses the width: together they span most of the screen.
    expect(side.x + side.width - main.x).toBeGreaterThan(1100);
    const install = await box(page, ".install-section");
    const readme = await box(page, ".readme-section");
    expect(readme.y - (install.y + install.height)).toBeLessThan(40);
    expect(readme.x).toBe(main.x);
    const sidebar = page.locator(".package-side");
    for (const heading of ["What it can touch", "What it hooks", "Details", "Versions"]) {
      expect(await sidebar.getByRole("heading", { name: heading }).count(), heading).toBe(1);
    }
    const facts = await sidebar.locator("dl.facts dt").allInnerTexts();
    for (const fact of ["Owners", "Downloads", "License", "Keywords"]) expect(facts).toContain(fact);
    expect(await page.locator(".package-main").getByText("Owners", { exact: true }).count()).toBe(0);
    const line = await page.getByLabel("Install command").textContent();
    expect(line).toBe("hookyard install shell-guard@1.0.0 --sandbox --grant fs.read:src --grant process:git");

    await page.goto(`${reg.url}/`);
    const controls = await box(page, ".browse-controls");
    const results = await box(page, ".browse-results");
    expect(results.x).toBeGreaterThanOrEqual(controls.x + controls.width);
    await context.close();
  }, 60_000);

  it("at 375 px the sidebar stacks under the readme, and the risk level is in the header above it", async () => {
    const { reg } = await layoutRegistry();
    const { page, context } = await openPage({ viewport: { width: 375, height: 800 }, isMobile: true });
    await page.goto(`${reg.url}/packages/shell-guard`);
    const main = await box(page, ".package-main");
    const side = await box(page, ".package-side");
    expect(side.y).toBeGreaterThanOrEqual(main.y + main.height);
    expect(side.x).toBe(main.x);
    const header = page.locator(".package-header");
    expect(await header.locator(".risk-level").textContent()).toBe("high risk");
    expect(await page.getByLabel("Install command").textContent()).toContain("--sandbox --grant fs.read:src");
    await context.close();
  }, 60_000);

  it("a yanked version with an advisory shows a warning and no Copy button; its command is folded away", async () => {
    const { reg } = await layoutRegistry();
    const { page, context } = await openPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${reg.url}/packages/leaky/v/1.0.0`);
    const install = page.locator(".install-section");
    const warning = install.getByRole("note");
    expect(await warning.textContent()).toContain("Do not install leaky@1.0.0:");
    expect(await warning.textContent()).toContain("high: posts .env to a remote host");
    expect(await install.getByRole("button", { name: "Copy" }).count()).toBe(0);
    expect(await install.locator("pre.install-line").isVisible()).toBe(false);
    await install.getByText("The command for this version").click();
    expect(await install.locator("pre.install-line").isVisible()).toBe(true);
    await warning.getByRole("link", { name: "1.1.0" }).click();
    await page.waitForURL(`${reg.url}/packages/leaky/v/1.1.0`);
    expect(await page.getByRole("button", { name: "Copy" }).isVisible()).toBe(true);
    await context.close();
  }, 60_000);

  it("sort and filter change what is listed, and the address keeps the view", async () => {
    const { reg } = await layoutRegistry();
    const { page, context } = await openPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${reg.url}/`);
    expect(await listedNames(page)).toEqual(["doc-reader", "leaky", "shell-guard"]);
    await page.getByLabel("Sort by").selectOption("name");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/sort=name/);
    expect(await listedNames(page)).toEqual(["doc-reader", "leaky", "shell-guard"].sort());
    await page.getByLabel("Sort by").selectOption("updated");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/sort=updated/);
    expect(await listedNames(page)).toEqual(["leaky", "doc-reader", "shell-guard"]);
    await page.getByLabel("Risk level").selectOption("high");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/risk=high/);
    expect(await listedNames(page)).toEqual(["shell-guard"]);
    const filtered = page.url();
    await page.getByLabel("Risk level").selectOption("");
    await page.getByLabel("Hook point").selectOption("turn_before");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/point=turn_before/);
    expect(await listedNames(page)).toEqual(["doc-reader"]);
    // A link reproduces the view.
    await page.goto(filtered);
    expect(await listedNames(page)).toEqual(["shell-guard"]);
    expect(await page.getByLabel("Risk level").inputValue()).toBe("high");
    // An owner link on a package page filters by that owner.
    await page.goto(`${reg.url}/packages/shell-guard`);
    await page.locator(".package-side").getByRole("link", { name: "alice" }).first().click();
    await page.waitForURL(`${reg.url}/?owner=alice`);
    expect(await listedNames(page)).toEqual(["leaky", "shell-guard"]);
    await context.close();
  }, 60_000);

  it("dates read as how long ago, with the exact time in the tooltip", async () => {
    const { reg, now } = await layoutRegistry();
    const { page, context } = await openPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${reg.url}/packages/shell-guard`);
    const published = page.locator(".version-line time");
    expect(await published.textContent()).toBe("3 days ago");
    const iso = new Date(now - 3 * day).toISOString();
    expect(await published.getAttribute("title")).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`);
    expect(await published.getAttribute("datetime")).toBe(iso);
    await page.goto(`${reg.url}/?sort=name`);
    const card = page.locator(".browse-results .card", { hasText: "doc-reader" });
    expect(await card.locator("time").textContent()).toBe("2 days ago");
    await context.close();
  }, 60_000);
});
