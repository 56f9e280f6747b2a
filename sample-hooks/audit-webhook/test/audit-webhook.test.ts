import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LoadHooksOptions, loadHooks } from "hookyard";
import { type SandboxedHook, sandboxedHook } from "hookyard/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Runs as users run it: bundled as `hookyard pack` bundles it, in the real sandbox, granted only the collector's port.
const source = fileURLToPath(new URL("../src/hook.ts", import.meta.url));
const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
  hookyard: { mode: "background"; timeoutMs: number };
};

interface Received {
  method: string | undefined;
  path: string | undefined;
  type: string | undefined;
  body: Record<string, unknown>;
}

/** A local audit collector: answers 204, or 500, or holds every request until released. */
async function startCollector() {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const state = { answer: "ok" as "ok" | "fail" | "hold" };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method,
        path: request.url,
        type: request.headers["content-type"],
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
      });
      if (state.answer === "hold") held.push(response);
      else response.writeHead(state.answer === "ok" ? 204 : 500).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/audit`,
    received,
    held,
    state,
    release: () => {
      for (const response of held.splice(0)) response.writeHead(204).end();
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

/** A port nothing listens on: bound once, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

/** Polls a condition every 20 ms, at most `ms`. */
/**
 * Polls for what the hook did. A bound on a hang, not a measure: the hook's first call may wait
 * for a sandbox process to start, which on a busy machine (a load of 10 on 2 cores) took seconds.
 */
async function until(condition: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${ms} ms`);
    await new Promise((wait) => setTimeout(wait, 20));
  }
}

const toolCall = (callId: string, result = "README.md\nsrc\n") => ({
  sessionId: "s-audit",
  tool: "bash",
  args: { command: "ls" },
  callId,
  result,
});

let collector: Awaited<ReturnType<typeof startCollector>>;
let root: string;
const opened: SandboxedHook[] = [];

async function open(grants: string[], config?: Record<string, unknown>): Promise<SandboxedHook> {
  const hook = await sandboxedHook(source, { root, grants, ...(config ? { config } : {}) });
  opened.push(hook);
  return hook;
}

beforeAll(async () => {
  collector = await startCollector();
  root = await mkdtemp(join(tmpdir(), "audit-webhook-test-"));
});

afterAll(async () => {
  collector.release();
  await Promise.all(opened.map((hook) => hook.close()));
  await collector.close();
  await rm(root, { recursive: true, force: true });
});

describe("audit-webhook", () => {
  let hook: SandboxedHook;
  beforeAll(async () => {
    hook = await open([`net:127.0.0.1:${collector.port}`], { url: collector.url });
  });

  it("posts a JSON record of the tool call to the configured url", async () => {
    collector.received.length = 0;
    const before = Date.now();
    const outcome = await hook.run("tool_after", toolCall("call-7"));
    expect(outcome.verdict).toBe("allow");
    await until(() => collector.received.length === 1);
    const [record] = collector.received;
    expect(record).toMatchObject({ method: "POST", path: "/audit", type: "application/json" });
    expect(record?.body).toEqual({
      time: expect.any(String),
      sessionId: "s-audit",
      tool: "bash",
      args: { command: "ls" },
      result: "README.md\nsrc\n",
      callId: "call-7",
    });
    const time = Date.parse(String(record?.body.time));
    expect(time).toBeGreaterThanOrEqual(before - 1_000);
    expect(time).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(hook.logs).toEqual([]);
    expect(hook.errors).toEqual([]);
  });

  it("cuts the result to maxResultChars, 2000 by default", async () => {
    collector.received.length = 0;
    await hook.run("tool_after", toolCall("call-big", "x".repeat(5_000)));
    await until(() => collector.received.length === 1);
    expect(collector.received[0]?.body.result).toBe("x".repeat(2_000));
  });

  it("a collector that answers an error status is logged; the hook does not fail", async () => {
    collector.state.answer = "fail";
    try {
      await hook.run("tool_after", toolCall("call-500"));
    } finally {
      collector.state.answer = "ok";
    }
    expect(hook.logs).toContain(
      `[audit-webhook] ${collector.url} answered 500 to the record of call call-500`,
    );
    expect(hook.errors).toEqual([]);
  });

  it("does not delay the agent: dispatch returns before a slow collector answers", async () => {
    // Through the runner's own loader, as `hookyard run` dispatches: `run` of the test helper waits
    // for background hooks, an agent does not.
    await writeFile(
      join(root, "hookyard.json"),
      JSON.stringify({ hooks: { "audit-webhook": { config: { url: collector.url, maxResultChars: 5 } } } }),
    );
    const code = Buffer.from(hook.code);
    const community: NonNullable<LoadHooksOptions["community"]> = [
      {
        name: "audit-webhook",
        source,
        code,
        integrity: `sha512-${createHash("sha512").update(code).digest("base64")}`,
        events: ["tool_after"],
        settings: { mode: manifest.hookyard.mode, timeoutMs: manifest.hookyard.timeoutMs },
        grants: [{ kind: "net", host: "127.0.0.1", port: collector.port, literal: true }],
      },
    ];
    const said: string[] = [];
    const logger = {
      info: (m: string) => said.push(m),
      warn: (m: string) => said.push(m),
      error: (m: string) => said.push(m),
    };
    const hooks = await loadHooks({ cwd: root, logger, community });
    expect(hooks.problems).toEqual([]);
    collector.received.length = 0;
    collector.state.answer = "hold";
    try {
      const started = performance.now();
      const outcome = await hooks.dispatch("tool_after", toolCall("call-slow", "0123456789"));
      const ms = performance.now() - started;
      expect(outcome.verdict).toBe("allow");
      // Had it waited for the collector, which holds the request until released below, it would
      // have waited out the hook's timeoutMs.
      expect(ms).toBeLessThan(manifest.hookyard.timeoutMs);
      // The record reaches the collector after dispatch returned, and waits there unanswered.
      await until(() => collector.held.length === 1);
      expect(collector.received[0]?.body).toMatchObject({ callId: "call-slow", result: "01234" });
      collector.release();
      await hooks.drain();
      expect(said).toEqual([]);
    } finally {
      collector.state.answer = "ok";
      collector.release();
      await hooks.close();
    }
  });

  it("a collector that never answers costs the hook a logged timeout, not its isolate", async () => {
    collector.state.answer = "hold";
    try {
      // Ended by the default post timeout (2 s), before the sandbox's 5 s cap: the broker's
      // timeout is what the hook logs below, not a sandbox timeout.
      await hook.run("tool_after", toolCall("call-hung"));
    } finally {
      collector.state.answer = "ok";
      collector.release();
    }
    expect(hook.logs.at(-1)).toMatch(/could not post the record of call call-hung to .*: BROKER_ERR_TIMEOUT/);
    expect(hook.errors).toEqual([]);
    collector.received.length = 0;
    const next = await hook.run("tool_after", toolCall("call-after"));
    expect(next.warnings).toEqual([]);
    await until(() => collector.received.length === 1);
    expect(hook.errors).toEqual([]);
  });

  it("an unset url is said once, and nothing is sent", async () => {
    const unset = await open([`net:127.0.0.1:${collector.port}`]);
    collector.received.length = 0;
    for (const callId of ["call-1", "call-2", "call-3"]) {
      const outcome = await unset.run("tool_after", toolCall(callId));
      expect(outcome.warnings).toEqual([]);
    }
    expect(unset.logs).toEqual([
      '[audit-webhook] no collector configured: set hooks["audit-webhook"].config.url in hookyard.json',
    ]);
    expect(collector.received).toEqual([]);
  });

  it("a collector that is down is logged; the hook does not throw", async () => {
    const port = await closedPort();
    const down = await open([`net:127.0.0.1:${port}`], { url: `http://127.0.0.1:${port}/audit` });
    const outcome = await down.run("tool_after", toolCall("call-down"));
    expect(outcome.warnings).toEqual([]);
    expect(down.errors).toEqual([]);
    expect(down.logs).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[audit-webhook\\] could not post the record of call call-down to http://127\\.0\\.0\\.1:${port}/audit: BROKER_ERR_NET`,
        ),
      ),
    ]);
  });

  it.each([
    [
      "another port",
      (other: number) => `http://127.0.0.1:${other}/audit`,
      (other: number) => `net:127.0.0.1:${other}`,
    ],
    ["localhost", () => "http://localhost:{port}/audit", () => "net:localhost:{port}"],
    ["another host", () => "https://collector.example.com/audit", () => "net:collector.example.com:443"],
  ])(
    "a url to %s is denied by the sandbox: logged with the grant it needs, nothing sent",
    async (_name, url, needs) => {
      const other = await closedPort();
      const withPort = (text: string) => text.replace("{port}", String(collector.port));
      const denied = await open([`net:127.0.0.1:${collector.port}`], { url: withPort(url(other)) });
      collector.received.length = 0;
      const outcome = await denied.run("tool_after", toolCall("call-denied"));
      expect(outcome.warnings).toEqual([]);
      expect(denied.errors).toEqual([]);
      expect(denied.logs.join("\n")).toContain(`CAPABILITY_DENIED: needs ${withPort(needs(other))}`);
      expect(collector.received).toEqual([]);
    },
  );

  it("never logs the credentials or query of a url", async () => {
    const leaky = await open([`net:127.0.0.1:${collector.port}`], {
      url: `http://auditor:hunter2@127.0.0.1:${collector.port}/audit?token=s3cret#frag`,
    });
    await leaky.run("tool_after", toolCall("call-leak"));
    const said = [...leaky.logs, ...leaky.errors].join("\n");
    expect(said).toContain(`to http://127.0.0.1:${collector.port}/audit: BROKER_ERR_BAD_ARGS`);
    expect(said).not.toMatch(/hunter2|s3cret|auditor|frag/);
  });
});
