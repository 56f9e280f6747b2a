import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookPackage, publish, startRegistry, type TestRegistry, tokenFor } from "../registry/helpers.js";

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
const screenshots = fileURLToPath(new URL("../../test-artifacts/screenshots/", import.meta.url));
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
      expect(copied).toBe("hookyard install shell-guard --sandbox");

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
    expect(await page.getByLabel("Install command").inputValue()).toBe(
      "hookyard install shell-guard --sandbox",
    );
    expect(await page.getByRole("button", { name: "Copy" }).isHidden()).toBe(true);
    await page.getByLabel("Search hooks").fill("shell");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(`${reg.url}/?q=shell`);
    expect(await page.getByRole("link", { name: "shell-guard" }).count()).toBe(1);
    await context.close();
  }, 60_000);
});
