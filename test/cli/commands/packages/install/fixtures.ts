import { readdir, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach } from "vitest";
import { runCli } from "../../../../helpers/run-cli.js";
import { tempDir } from "../../../../helpers/temp.js";
import { hookPackage, publish, type TestRegistry } from "../../../../registry/helpers.js";

/** A guard package that asks to read docs/ and to reach api.example.com, at `version`. */
export async function publishGuard(
  registry: TestRegistry,
  version: string,
  capabilities: Record<string, unknown> = { fs: { read: ["docs"] }, net: ["api.example.com:443"] },
  name = "guard",
): Promise<void> {
  const tarball = await hookPackage({
    name,
    version,
    manifest: {
      hookyard: { main: "dist/hook.js", events: ["tool_before"], capabilities, effects: ["block"] },
    },
  });
  const answer = await publish(registry, registry.admin, tarball, name, version);
  if (answer.status !== 201) throw new Error(`publish ${name}@${version}: ${answer.status} ${answer.bytes}`);
}

/** Runs the CLI in `cwd` with a private user config, so the machine's own is never read. */
export async function cli(cwd: string, ...args: string[]) {
  return runCli(args, { cwd, env: { HOOKYARD_CONFIG: join(cwd, ".user-config.json") } });
}

/** Every file under `dir` with its bytes, to assert a workspace is exactly as it was. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries) {
    if (entry.isDirectory()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length + 1)] = (await readFile(path)).toString("base64");
  }
  return files;
}

export async function emptyWorkspace(): Promise<string> {
  return tempDir();
}

type Rewrite = (path: string, body: Buffer) => Buffer;

const proxies: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const proxy of proxies.splice(0)) proxy.close();
});

/**
 * A man in the middle on 127.0.0.1:0: forwards every GET to `target` and hands each answer's body
 * to `rewrite` before passing it on, as a hostile mirror or network would.
 */
export async function tamperingProxy(target: string, rewrite: Rewrite): Promise<string> {
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const upstream = await fetch(`${target}${request.url}`, { headers: { accept: "application/json" } });
      const body = rewrite(request.url ?? "", Buffer.from(await upstream.arrayBuffer()));
      response.writeHead(upstream.status, {
        "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
        "content-length": body.length,
      });
      response.end(body);
    } catch {
      response.destroy();
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  proxies.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
