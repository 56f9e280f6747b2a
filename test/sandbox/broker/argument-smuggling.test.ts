import { describe, expect, it } from "vitest";
import { tempDir, workspace } from "../../helpers/temp.js";
import { agentSession } from "../agent-check.js";
import { brokerFor, expectBrokerError, recordingServer } from "./helpers.js";

/*
 * Everything in a call comes from hook code: the method name and a JSON array. Nothing that does
 * not fit the method's signature reaches Node's APIs, and nothing a hook sends steers the host.
 */

describe("arguments that do not fit the method", () => {
  it("are refused with a plain message naming the argument", async () => {
    const root = await workspace({ "docs/a.md": "a" });
    const { call, broker } = brokerFor(root, ["fs.read:docs", "fs.write:docs", "process:echo"]);
    await expectBrokerError(broker.call("fs.readFile", "docs/a.md"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(broker.call("fs.readFile", undefined), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("fs.readFile"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("fs.readFile", "docs/a.md", "utf8"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("fs.writeFile", "docs/b.md", { toString: "x" }), "BROKER_ERR_BAD_ARGS");
    const error = await expectBrokerError(call("fs.writeFile", "docs/b.md", 42), "BROKER_ERR_BAD_ARGS");
    expect(error.message).toMatch(/^fs\.writeFile: argument 2: /);
    await expectBrokerError(call("process.exec", "echo", [], { shell: true }), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(
      call("process.exec", "echo", [], { env: { LD_PRELOAD: "x" } }),
      "BROKER_ERR_BAD_ARGS",
    );
    await expectBrokerError(broker.call("__proto__", []), "BROKER_ERR_UNKNOWN_METHOD");
    await expectBrokerError(broker.call("constructor", []), "BROKER_ERR_UNKNOWN_METHOD");
    const used = await agentSession({
      root,
      grants: ["fs.read:docs", "fs.write:docs", "process:echo"],
      use: `await api.fs.writeFile("docs/b.md", "b");
        const echo = await api.process.exec("echo", ["echoed"]);
        return [await api.fs.readFile("docs/a.md"), await api.fs.readFile("docs/b.md"), echo.stdout.trim()].join(" ");`,
    });
    expect(used).toBe("a b echoed");
  });

  it("cannot pollute the host through __proto__ keys", async () => {
    const root = await workspace({ "docs/a.md": "a" });
    const server = await recordingServer((_q, response) => response.end("ok"));
    const { broker } = brokerFor(root, [`net:127.0.0.1:${server.port}`, "process:echo"]);
    const polluted = JSON.parse(
      `["${server.origin}", { "headers": { "__proto__": { "polluted": "yes" } }, "__proto__": { "polluted": "yes" } }]`,
    );
    await broker.call("net.fetch", polluted).catch(() => undefined);
    await broker
      .call("process.exec", JSON.parse('["echo", [], { "__proto__": { "shell": true, "cwd": "/" } }]'))
      .catch(() => undefined);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).shell).toBeUndefined();
    const used = await agentSession({
      root,
      grants: [`net:127.0.0.1:${server.port}`, "process:echo"],
      use: `const echo = await api.process.exec("echo", ["echoed"]);
        return (await api.net.fetch("${server.origin}/")).body + " " + echo.stdout.trim();`,
    });
    expect(used).toBe("ok echoed");
  });
});

describe("a request that would smuggle something past the URL check", () => {
  it("refuses other schemes, credentials in the URL, and headers the broker owns", async () => {
    const server = await recordingServer((_q, response) => response.end("ok"));
    const root = await tempDir();
    const grants = [`net:127.0.0.1:${server.port}`, "net:example.com"];
    const { call } = brokerFor(root, grants);
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com/",
      "data:text/plain,x",
      "javascript:alert(1)",
    ]) {
      await expectBrokerError(call("net.fetch", url), "BROKER_ERR_BAD_ARGS");
    }
    await expectBrokerError(call("net.fetch", "not a url"), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(
      call("net.fetch", `http://user:pass@127.0.0.1:${server.port}/`),
      "BROKER_ERR_BAD_ARGS",
    );
    for (const headers of [
      { Host: "metadata.google.internal" },
      { "Transfer-Encoding": "chunked" },
      { "Content-Length": "0" },
      { Connection: "upgrade" },
      { "X-Injected": "a\r\nHost: evil" },
      { "Bad Name": "x" },
    ]) {
      await expectBrokerError(call("net.fetch", server.origin, { headers }), "BROKER_ERR_BAD_ARGS");
    }
    await expectBrokerError(call("net.fetch", server.origin, { method: "CONNECT" }), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("net.fetch", server.origin, { method: "TRACE" }), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("net.fetch", server.origin, { body: "x" }), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("net.fetch", server.origin, { redirect: "manual" }), "BROKER_ERR_BAD_ARGS");
    expect(server.seen).toEqual([]);

    // The same server, asked properly.
    expect(
      await call("net.fetch", server.origin, { method: "post", body: "x", headers: { "X-Ok": "1" } }),
    ).toMatchObject({
      status: 200,
      body: "ok",
    });
    expect(server.seen).toMatchObject([{ method: "POST", headers: { "x-ok": "1", "content-length": "1" } }]);
    const used = await agentSession({
      root,
      grants,
      use: `return (await api.net.fetch("${server.origin}/", { headers: { "X-Ok": "1" } })).body;`,
    });
    expect(used).toBe("ok");
  });
});
