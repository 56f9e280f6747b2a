import { describe, expect, it } from "vitest";
import { tempDir } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectBrokerError, expectDenied, recordingServer } from "../helpers.js";

/** A server that answers `status` with a Location, for the paths it is told; 200 "final" otherwise. */
async function redirector(redirects: Record<string, { status: number; to: () => string }>) {
  return recordingServer((request, response) => {
    const redirect = redirects[request.url ?? ""];
    if (redirect) {
      response.writeHead(redirect.status, { location: redirect.to() });
      response.end("moved");
      return;
    }
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => response.end(`final ${request.method} ${body}`));
  });
}

/** The agent check: a hook holding the attack's grants (loopback ports) fetches `url` and gets its body. */
async function agentFetches(root: string, ports: number[], url: string): Promise<string> {
  return agentSession({
    root,
    grants: ports.map((port) => `net:127.0.0.1:${port}`),
    use: `return (await api.net.fetch("${url}")).body;`,
  });
}

describe("a redirect from a granted address", () => {
  it("to a forbidden address is checked like a new request: denied, and the forbidden server sees nothing", async () => {
    const forbidden = await recordingServer((_q, response) => response.end("secret"));
    const granted = await redirector({
      "/to-loopback": { status: 302, to: () => `${forbidden.origin}/admin` },
      "/to-localhost": { status: 307, to: () => `http://localhost:${forbidden.port}/admin` },
      "/to-metadata": { status: 301, to: () => "http://169.254.169.254/latest/meta-data/" },
      "/to-file": { status: 302, to: () => "file:///etc/passwd" },
    });
    const root = await tempDir();
    const { call, audit } = brokerFor(root, [`net:127.0.0.1:${granted.port}`]);

    await expectDenied(call("net.fetch", `${granted.origin}/to-loopback`), `net:127.0.0.1:${forbidden.port}`);
    expect(audit.entries).toMatchObject([
      { allowed: true, target: `GET ${granted.origin}/to-loopback`, grant: `net:127.0.0.1:${granted.port}` },
      { allowed: false, target: `GET ${forbidden.origin}/admin`, needs: `net:127.0.0.1:${forbidden.port}` },
    ]);
    await expectDenied(
      call("net.fetch", `${granted.origin}/to-localhost`),
      `net:localhost:${forbidden.port}`,
    );
    await expectDenied(call("net.fetch", `${granted.origin}/to-metadata`), "net:169.254.169.254:80");
    await expectBrokerError(call("net.fetch", `${granted.origin}/to-file`), "BROKER_ERR_BAD_ARGS");
    expect(forbidden.seen).toEqual([]);
    expect(granted.seen).toHaveLength(4);
    expect(await agentFetches(root, [granted.port], `${granted.origin}/plain`)).toBe("final GET ");
    expect(forbidden.seen).toEqual([]);
  });

  it("drops Authorization and Cookie when the origin changes, and keeps them on the same origin", async () => {
    const other = await redirector({});
    const start = await redirector({
      "/same": { status: 302, to: () => "/final" },
      "/cross": { status: 302, to: () => `${other.origin}/final` },
    });
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${start.port}`, `net:127.0.0.1:${other.port}`]);
    const headers = { Authorization: "Bearer hook-token", Cookie: "session=1", "X-Trace": "keep-me" };

    await call("net.fetch", `${start.origin}/same`, { headers });
    expect(start.seen[1]?.headers).toMatchObject({ authorization: "Bearer hook-token", cookie: "session=1" });

    expect(await call("net.fetch", `${start.origin}/cross`, { headers })).toMatchObject({ status: 200 });
    const crossed = other.seen[0]?.headers ?? {};
    expect(crossed.authorization).toBeUndefined();
    expect(crossed.cookie).toBeUndefined();
    expect(crossed["x-trace"]).toBe("keep-me");
    expect(await agentFetches(root, [start.port, other.port], `${start.origin}/same`)).toBe("final GET ");
  });

  it("follows method rules: 303 continues as GET without the body, 307 keeps both", async () => {
    const server = await redirector({
      "/see-other": { status: 303, to: () => "/final" },
      "/temporary": { status: 307, to: () => "/final" },
    });
    const { call } = brokerFor(await tempDir(), [`net:127.0.0.1:${server.port}`]);
    const post = { method: "POST", body: "payload", headers: { "content-type": "text/plain" } };
    expect(await call("net.fetch", `${server.origin}/see-other`, post)).toMatchObject({ body: "final GET " });
    expect(server.seen[1]?.headers["content-type"]).toBeUndefined();
    expect(await call("net.fetch", `${server.origin}/temporary`, post)).toMatchObject({
      body: "final POST payload",
    });
  });

  it("stops after maxRedirects", async () => {
    const server = await redirector({ "/loop": { status: 302, to: () => "/loop" } });
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${server.port}`], {
      limits: { maxRedirects: 3 },
    });
    await expectBrokerError(call("net.fetch", `${server.origin}/loop`), "BROKER_ERR_TOO_MANY_REDIRECTS");
    expect(server.seen).toHaveLength(4);
    expect(await agentFetches(root, [server.port], `${server.origin}/plain`)).toBe("final GET ");
  });
});
