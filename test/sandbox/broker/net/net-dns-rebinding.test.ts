import { describe, expect, it } from "vitest";
import { tempDir } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectDenied, recordingServer } from "../helpers.js";

/*
 * A granted host name whose DNS answer is an internal address (a rebinding attack, or a name
 * the hook's author controls): the broker resolves the name itself, checks every address, and
 * connects to the address it checked. `hosts` plays the resolver here.
 */

describe("a granted host name that resolves to an internal address", () => {
  it("is denied when it resolves to loopback, naming the literal grant it would take", async () => {
    const service = await recordingServer((_q, response) => response.end("internal"));
    const root = await tempDir();
    const hosts = { "api.example.com": ["127.0.0.1"] };
    const { call } = brokerFor(root, ["net:api.example.com"], { hosts });
    const error = await call("net.fetch", `http://api.example.com:${service.port}/`).catch((e: Error) => e);
    expect(error).toMatchObject({ code: "CAPABILITY_DENIED", needs: `net:127.0.0.1:${service.port}` });
    expect((error as Error).message).toContain("api.example.com resolves to 127.0.0.1");
    expect(service.seen).toEqual([]);
    expect(await agentFetches(root, service.port, hosts)).toBe("internal");
  });

  it("is denied when any one of its addresses is internal, whichever comes first", async () => {
    const service = await recordingServer((_q, response) => response.end("internal"));
    const url = `http://api.example.com:${service.port}/`;
    const root = await tempDir();
    for (const addresses of [
      ["93.184.216.34", "127.0.0.1"],
      ["2606:2800:220:1::1", "::1"],
      ["::ffff:127.0.0.1"],
      ["169.254.169.254"],
    ]) {
      const { call } = brokerFor(root, ["net:api.example.com"], { hosts: { "api.example.com": addresses } });
      await expect(call("net.fetch", url), addresses.join()).rejects.toMatchObject({
        code: "CAPABILITY_DENIED",
      });
    }
    expect(service.seen).toEqual([]);
    expect(await agentFetches(root, service.port, { "api.example.com": ["127.0.0.1"] })).toBe("internal");
  });

  it("connects to the checked address itself when the user also grants that address literally", async () => {
    const service = await recordingServer((_q, response) => response.end("ok"));
    const root = await tempDir();
    const grants = [`net:svc.test:${service.port}`, `net:127.0.0.1:${service.port}`];
    const hosts = { "svc.test": ["127.0.0.1"] };
    const { call } = brokerFor(root, grants, { hosts });
    // svc.test exists only in `hosts`: had the connection resolved the name again, it would fail.
    expect(await call("net.fetch", `http://svc.test:${service.port}/ping`)).toMatchObject({
      status: 200,
      body: "ok",
    });
    expect(service.seen).toMatchObject([{ url: "/ping", headers: { host: `svc.test:${service.port}` } }]);
    await expectDenied(
      call("net.fetch", `http://other.test:${service.port}/`),
      `net:other.test:${service.port}`,
    );
    const used = await agentSession({
      root,
      grants,
      hosts,
      use: `return (await api.net.fetch("http://svc.test:${service.port}/ping")).body;`,
    });
    expect(used).toBe("ok");
  });
});

/**
 * The agent check: a hook holding the attack's grant of api.example.com, and the literal grant
 * that makes its loopback address legitimate, reaches the service by name.
 */
async function agentFetches(root: string, port: number, hosts: Record<string, string[]>): Promise<string> {
  return agentSession({
    root,
    grants: ["net:api.example.com", `net:127.0.0.1:${port}`],
    hosts,
    use: `return (await api.net.fetch("http://api.example.com:${port}/")).body;`,
  });
}
