import { describe, expect, it } from "vitest";
import { hookyard } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { call } from "./helpers.js";
import { startServerProcess } from "./server-process.js";

/**
 * One `hookyard registry serve` per embedded data dir, with real processes: a second is refused
 * with REG_ERR_DATA_DIR_LOCKED while the first keeps serving, and a holder killed with SIGKILL
 * (which releases nothing) does not block the next start.
 */

const serve = (data: string, extra: string[] = []) => [
  "registry",
  "serve",
  "--data",
  data,
  "--port",
  "0",
  "--log-level",
  "silent",
  ...extra,
];

async function refused(args: string[], cwd: string): Promise<string> {
  const result = await hookyard(args, { cwd });
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

describe("an embedded registry is one process", () => {
  it("refuses a second serve on the same data dir, naming the first's pid; the first keeps serving", async () => {
    const root = await tempDir();
    const first = await startServerProcess(serve("data"), { cwd: root });
    const line = await refused(serve("data"), root);
    expect(line).toMatch(
      /^hookyard: CLI_ERR_REGISTRY: another `hookyard registry serve` already serves .*\/data \(host and pid: \S+ (\d+)\): an embedded registry is one process; stop the other one, or run several processes on PostgreSQL .*\(REG_ERR_DATA_DIR_LOCKED\)$/,
    );
    expect(line).toContain(` ${first.child.pid}):`);
    // The refused start made no second admin token and did not disturb the first.
    expect(line).not.toContain("hyk_");
    expect((await call(first.url, "/v1/tokens", { token: first.adminToken })).status).toBe(200);
    expect(first.child.exitCode).toBeNull();
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // Stopped cleanly: the next start takes the lock at once.
    const next = await startServerProcess(serve("data"), { cwd: root });
    next.child.kill("SIGTERM");
    expect(await next.exited).toBe(0);
  });

  it("a lock left by a SIGKILLed serve does not block the next start, which then holds it", async () => {
    const root = await tempDir();
    const first = await startServerProcess(serve("data"), { cwd: root });
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    const started = Date.now();
    const second = await startServerProcess(serve("data"), { cwd: root });
    // At once, not after the lock's 10 s staleness: the holder's pid is gone.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect((await call(second.url, "/v1/tokens", { token: first.adminToken })).status).toBe(200);
    const line = await refused(serve("data"), root);
    expect(line).toContain(` ${second.child.pid}):`);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("two data dirs cannot share one sqlite file either (--database sqlite:<path>)", async () => {
    const root = await tempDir();
    const first = await startServerProcess(serve("one", ["--database", "sqlite:shared.db"]), { cwd: root });
    const line = await refused(serve("two", ["--database", "sqlite:shared.db"]), root);
    expect(line).toMatch(
      /already serves .*\/shared\.db \(host and pid: \S+ \d+\).*\(REG_ERR_DATA_DIR_LOCKED\)$/,
    );
    expect(first.child.exitCode).toBeNull();
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
  });
});
