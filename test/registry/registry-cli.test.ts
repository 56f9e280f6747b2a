import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type Io, main } from "../../cli/main.js";
import { type CliResult, hookyard } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { call, hookPackage, publishPath } from "./helpers.js";
import { startServerProcess } from "./server-process.js";

/** The CLI in this process: for runs that end on their own (help, usage and start-up errors). */
async function cli(args: string[], cwd: string): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    ({ write: (text: string) => into.push(text) > 0 }) as unknown as Io["stdout"];
  const io: Io = {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from([]),
    env: { NO_COLOR: "1" },
    cwd,
  };
  const code = await main(args, io);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("hookyard registry serve", () => {
  it("prints the admin token on the first start only, and stops cleanly on SIGTERM and SIGINT", async () => {
    const root = await tempDir();
    const serve = ["registry", "serve", "--data", "data", "--port", "0", "--log-level", "silent"];
    const first = await startServerProcess(serve, { cwd: root });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.adminToken).toMatch(/^hyk_/);
    const tokens = await call(first.url, "/v1/tokens", { token: first.adminToken });
    expect(tokens.json.tokens[0]).toMatchObject({ owner: "admin", scope: "admin" });
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toContain("hookyard registry stopped");

    const second = await startServerProcess(serve, { cwd: root });
    expect(second.adminToken).toBeUndefined();
    expect(second.stderr()).not.toContain("hyk_");
    expect((await call(second.url, "/v1/tokens", { token: first.adminToken })).status).toBe(200);
    second.child.kill("SIGINT");
    expect(await second.exited).toBe(0);
  });

  it("a data dir that cannot be used is one clear line with its code, no stack, exit 1", async () => {
    const root = await tempDir();
    await writeFile(join(root, "file"), "x");
    const result = await hookyard(["registry", "serve", "--data", "file/below", "--port", "0"], {
      cwd: root,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^hookyard: CLI_ERR_REGISTRY: cannot use .*file\/below .*\(REG_ERR_DATA_DIR\)/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("a port in use is CLI_ERR_PORT_IN_USE, exit 1, and a first start still shows the admin token it made", async () => {
    const root = await tempDir();
    const taken = createServer();
    taken.listen(0, "127.0.0.1");
    await once(taken, "listening");
    try {
      const port = String((taken.address() as { port: number }).port);
      const result = await cli(["registry", "serve", "--data", "data", "--port", port], root);
      expect(result.code).toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines.at(-1)).toBe(
        `hookyard: CLI_ERR_PORT_IN_USE: 127.0.0.1:${port} is already in use (stop what is listening there, or pass another --port)`,
      );
      // The data dir now has its admin token: a later start makes none, so this one was the only chance.
      const token = /admin token \(shown this once; store it now\): (hyk_\S+)/.exec(result.stderr)?.[1];
      expect(token).toBeDefined();
      const again = await cli(["registry", "serve", "--data", "data", "--port", port], root);
      expect(again.stderr.trim().split("\n")).toEqual([lines.at(-1)]);
      const serve = ["registry", "serve", "--data", "data", "--port", "0", "--log-level", "silent"];
      const started = await startServerProcess(serve, { cwd: root });
      try {
        expect((await call(started.url, "/v1/tokens", { token })).status).toBe(200);
      } finally {
        started.child.kill("SIGTERM");
        await started.exited;
      }
    } finally {
      taken.close();
    }
  });

  it("--data is required and --port must be a port (usage errors, exit 2)", async () => {
    const root = await tempDir();
    const noData = await cli(["registry", "serve"], root);
    const badPort = await cli(["registry", "serve", "--data", "d", "--port", "99999"], root);
    expect(noData?.code).toBe(2);
    expect(noData?.stderr).toContain("required option '--data <dir>' not specified");
    expect(badPort?.code).toBe(2);
    expect(badPort?.stderr).toContain("CLI_ERR_USAGE: --port 99999 is not a port number");
  });
});

describe("hookyard registry token create", () => {
  it("makes a token beside a running server, which accepts it at once", async () => {
    const root = await tempDir();
    const server = await startServerProcess(["registry", "serve", "--data", "data", "--port", "0"], {
      cwd: root,
    });
    const made = await hookyard(
      ["registry", "token", "create", "--owner", "alice", "--data", "data", "--expires", "30d", "--json"],
      { cwd: root },
    );
    expect(made.code).toBe(0);
    const token = JSON.parse(made.stdout);
    expect(token).toMatchObject({ owner: "alice", scope: "publish", revokedAt: null });
    const answer = await call(server.url, publishPath("guard", "1.0.0"), {
      method: "PUT",
      token: token.token,
      body: await hookPackage({ name: "guard" }),
    });
    expect(answer.status).toBe(201);
    expect(answer.json.publishedBy).toBe("alice");

    const text = await hookyard(
      ["registry", "token", "create", "--owner", "bob", "--data", "data", "--scope", "read"],
      {
        cwd: root,
      },
    );
    expect(text.stdout).toMatch(/^token +hyk_\S+\n/);
    expect(text.stdout).toContain("not shown again");
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("refuses a data dir without a registry, and bad options", async () => {
    const root = await tempDir();
    const create = ["registry", "token", "create"];
    const [none, noOwner, badExpiry] = await Promise.all(
      [
        [...create, "--owner", "alice", "--data", "none"],
        [...create, "--data", "none"],
        [...create, "--owner", "alice", "--data", "none", "--expires", "soon"],
      ].map((args) => cli(args, root)),
    );
    expect(none?.code).toBe(1);
    expect(none?.stderr).toContain("REG_ERR_DATA_DIR");
    expect(noOwner?.code).toBe(2);
    expect(badExpiry?.code).toBe(2);
    expect(badExpiry?.stderr).toContain("--expires soon is not a duration");
  });

  it("--help is useful at every level", async () => {
    const root = await tempDir();
    const [top, group, tokenGroup, create] = await Promise.all(
      [
        ["--help"],
        ["registry", "--help"],
        ["registry", "token", "--help"],
        ["registry", "token", "create", "--help"],
      ].map((args) => cli(args, root)),
    );
    expect(top?.stdout).toMatch(/registry +Run a hookyard registry/);
    expect(group?.stdout).toMatch(/serve \[options\]/);
    expect(group?.stdout).toMatch(/token +Manage a registry's tokens/);
    expect(tokenGroup?.stdout).toMatch(/create \[options\]/);
    expect(create?.stdout).toContain("--owner <name>");
    expect(create?.stdout).toContain('(choices: "read", "publish", "admin"');
    expect(create?.stdout).toContain("--cwd <dir>");
  });
});
