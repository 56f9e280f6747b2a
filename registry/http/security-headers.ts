import helmet from "@fastify/helmet";
import Fastify from "fastify";

/**
 * The headers @fastify/helmet sets with its defaults, asked of the plugin once at start. Registered
 * globally, the plugin builds helmet's middleware again for every request (parsing the CSP
 * directives each time), which cost about a tenth of a cached read; with no per-request options
 * the headers are the same every time, so the registry sets this list itself.
 */
export async function helmetHeaders(): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, { global: false });
    probe.get("/", (_request, reply) => {
      reply.helmet();
      return reply.send(reply.raw.getHeaders());
    });
    const answer = await probe.inject({ method: "GET", url: "/" });
    const headers = answer.json() as Record<string, string | number | string[]>;
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
  } finally {
    await probe.close();
  }
}
