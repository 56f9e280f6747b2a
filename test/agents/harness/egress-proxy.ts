import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";

/**
 * An HTTP(S) proxy on 127.0.0.1 that an agent under test is given (HTTPS_PROXY, HTTP_PROXY): it
 * tunnels to the hosts it allows (the npm registry, which the agent may install its own packages
 * from) and refuses and records everything else, so a test can assert the agent reached for
 * nothing beyond them. Loopback (the fake model) is NO_PROXY.
 */
export interface EgressProxy {
  url: string;
  /** Every destination asked for that was refused ("CONNECT host:443", "GET http://…"). */
  refused: string[];
  /** Every destination tunnelled to, in order. */
  allowed: string[];
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startEgressProxy(allowedHosts: readonly string[]): Promise<EgressProxy> {
  const refused: string[] = [];
  const allowed: string[] = [];
  const server: Server = createServer((req, res) => {
    refused.push(`${req.method} ${req.url}`);
    res.writeHead(403);
    res.end();
  });
  server.on("connect", (req, client) => {
    client.on("error", () => {});
    const target = req.url ?? "";
    const [host, port] = target.split(":");
    if (host === undefined || !allowedHosts.includes(host)) {
      refused.push(`CONNECT ${target}`);
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    allowed.push(`CONNECT ${target}`);
    const upstream = connect(Number(port ?? 443), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const noProxy = "127.0.0.1,localhost";
  return {
    url,
    refused,
    allowed,
    env: {
      HTTPS_PROXY: url,
      HTTP_PROXY: url,
      https_proxy: url,
      http_proxy: url,
      NO_PROXY: noProxy,
      no_proxy: noProxy,
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
