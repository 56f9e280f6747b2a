/**
 * A bare node:http server that answers every request with the same bytes, as fast as Node can:
 * the load generator against it shows the most any server can score on this machine with this
 * generator (both share the cores).
 *
 *   node dist/bench/registry/ceiling-server.js --port <port> --bytes <size>
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { port: { type: "string" }, bytes: { type: "string" } },
  strict: true,
});
const body = Buffer.alloc(Number(values.bytes ?? 1024), "x");
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
});
server.listen(Number(values.port), "127.0.0.1");
process.once("SIGTERM", () => server.close(() => process.exit(0)));
