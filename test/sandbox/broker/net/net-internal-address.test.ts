import { describe, expect, it } from "vitest";
import { tempDir } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectDenied, recordingServer } from "../helpers.js";

/** An internal service on loopback that a hook must not reach unless its literal address is granted. */
async function internalService() {
  return recordingServer((_request, response) => {
    response.setHeader("x-service", "internal");
    response.end("internal data");
  });
}

describe("a hook reaching loopback, private and metadata addresses", () => {
  it("is denied every spelling of loopback: by name, by number, numeric tricks, IPv6 and IPv4-mapped", async () => {
    const service = await internalService();
    const port = service.port;
    // A broad-looking set of grants: none names a loopback address literally.
    const root = await tempDir();
    const grants = ["net:localhost", "net:api.example.com"];
    const hosts = { "api.example.com": ["93.184.216.34"] };
    const { call } = brokerFor(root, grants, { hosts });
    // By name: localhost resolves to 127.0.0.1 or ::1 depending on the host; either is denied.
    await expect(call("net.fetch", `http://localhost:${port}/`)).rejects.toMatchObject({
      code: "CAPABILITY_DENIED",
      needs: expect.stringMatching(new RegExp(`^net:(127\\.0\\.0\\.1|\\[::1\\]):${port}$`)),
    });
    const loopback = `net:127.0.0.1:${port}`;
    const cases: [string, string][] = [
      [`http://127.0.0.1:${port}/`, loopback],
      [`http://2130706433:${port}/`, loopback],
      [`http://0x7f.1:${port}/`, loopback],
      [`http://017700000001:${port}/`, loopback],
      [`http://127.1:${port}/`, loopback],
      [`http://0x7f000001:${port}/`, loopback],
      [`http://0.0.0.0:${port}/`, `net:0.0.0.0:${port}`],
      [`http://0:${port}/`, `net:0.0.0.0:${port}`],
      [`http://[::1]:${port}/`, `net:[::1]:${port}`],
      [`http://[0:0:0:0:0:0:0:1]:${port}/`, `net:[::1]:${port}`],
      [`http://[::ffff:127.0.0.1]:${port}/`, `net:[::ffff:7f00:1]:${port}`],
      [`http://[::ffff:7f00:1]:${port}/`, `net:[::ffff:7f00:1]:${port}`],
      [`http://[::127.0.0.1]:${port}/`, `net:[::7f00:1]:${port}`],
    ];
    for (const [url, needs] of cases) await expectDenied(call("net.fetch", url), needs);
    expect(service.seen).toEqual([]);
    expect(await agentFetches(root, grants, hosts, service.port)).toBe("internal data");
  });

  it("is denied metadata, private, link-local, CGNAT and multicast addresses before any connection", async () => {
    const root = await tempDir();
    const grants = ["net:metadata.google.internal"];
    const hosts = { "metadata.google.internal": ["169.254.169.254"] };
    const { call, audit } = brokerFor(root, grants, { hosts });
    const cases: [string, string][] = [
      ["http://169.254.169.254/latest/meta-data/", "net:169.254.169.254:80"],
      ["http://metadata.google.internal/computeMetadata/v1/", "net:169.254.169.254:80"],
      ["http://[::ffff:169.254.169.254]/", "net:[::ffff:a9fe:a9fe]:80"],
      ["http://[fe80::1]/", "net:[fe80::1]:80"],
      ["http://10.0.0.1:8080/", "net:10.0.0.1:8080"],
      ["http://192.168.1.1/", "net:192.168.1.1:80"],
      ["https://172.16.0.1/", "net:172.16.0.1:443"],
      ["http://100.64.0.1/", "net:100.64.0.1:80"],
      ["http://[fd00::1]/", "net:[fd00::1]:80"],
      ["http://224.0.0.1/", "net:224.0.0.1:80"],
    ];
    for (const [url, needs] of cases) await expectDenied(call("net.fetch", url), needs);
    expect(audit.entries.every((entry) => !entry.allowed)).toBe(true);
    const service = await internalService();
    expect(await agentFetches(root, grants, hosts, service.port)).toBe("internal data");
  });

  it("reaches a loopback service when its literal address is granted, with headers as a plain object", async () => {
    const service = await internalService();
    const root = await tempDir();
    const { call } = brokerFor(root, [`net:127.0.0.1:${service.port}`]);
    const answer = (await call("net.fetch", `${service.origin}/data?x=1`)) as Record<string, unknown>;
    expect(answer).toMatchObject({ status: 200, body: "internal data" });
    expect(Object.getPrototypeOf(answer.headers)).toBe(Object.prototype);
    expect(answer.headers).toMatchObject({ "x-service": "internal", "content-length": "13" });
    expect(service.seen).toMatchObject([{ method: "GET", url: "/data?x=1" }]);

    // The same address spelled as a number is the same address, and so granted.
    await call("net.fetch", `http://2130706433:${service.port}/`);
    expect(service.seen).toHaveLength(2);
    // The grant names a port: another port on that address is not granted.
    await expectDenied(
      call("net.fetch", `http://127.0.0.1:${service.port + 1}/`),
      `net:127.0.0.1:${service.port + 1}`,
    );
    expect(await agentFetches(root, [], {}, service.port)).toBe("internal data");
  });
});

/**
 * The agent check: a hook holding the attack's grants, and the literal grant of a loopback
 * service, reaches that service.
 */
async function agentFetches(
  root: string,
  grants: string[],
  hosts: Record<string, string[]>,
  port: number,
): Promise<string> {
  return agentSession({
    root,
    grants: [...grants, `net:127.0.0.1:${port}`],
    hosts,
    use: `return (await api.net.fetch("http://127.0.0.1:${port}/")).body;`,
  });
}
