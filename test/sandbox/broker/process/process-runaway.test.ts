import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspace } from "../../../helpers/temp.js";
import { agentSession } from "../../agent-check.js";
import { brokerFor, expectBrokerError } from "../helpers.js";

/** Whether `pid` still runs: a zombie (killed, waiting for init to reap it) does not. */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[2] !== "Z";
  } catch {
    return false;
  }
}

describe("a command that runs away", () => {
  it("is killed at the timeout with everything it started (its whole process group)", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:sh"], { limits: { execTimeoutMs: 5_000 } });
    const started = Date.now();
    await expectBrokerError(
      call("process.exec", "sh", ["-c", "sleep 30 & echo $! > background.pid; sleep 30"], { timeoutMs: 300 }),
      "BROKER_ERR_TIMEOUT",
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    const background = Number(await readFile(join(root, "background.pid"), "utf8"));
    await expect.poll(() => running(background), { timeout: 2_000 }).toBe(false);
    expect(await agentRuns(root, ["process:sh"], "sh", ["-c", "echo ran"])).toBe("ran\n");
  });

  it("cannot outlive its call by leaving a background process holding its output", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:sh"]);
    const started = Date.now();
    const result = (await call("process.exec", "sh", ["-c", "sleep 30 & echo $!"])) as { stdout: string };
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect.poll(() => running(Number(result.stdout)), { timeout: 2_000 }).toBe(false);
    expect(await agentRuns(root, ["process:sh"], "sh", ["-c", "echo ran"])).toBe("ran\n");
  });

  it("is killed when it writes more than the output cap", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:yes"], { limits: { execOutputBytes: 64 * 1024 } });
    const started = Date.now();
    await expectBrokerError(call("process.exec", "yes", []), "BROKER_ERR_TOO_LARGE");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await agentRuns(root, ["process:yes"], "yes", ["--version"])).toMatch(/^yes /);
  });

  it("gets its input on stdin, capped, and its exit code back", async () => {
    const root = await workspace();
    const { call } = brokerFor(root, ["process:cat", "process:sh"], { limits: { execInputBytes: 10 } });
    expect(await call("process.exec", "cat", [], { input: "hello" })).toEqual({
      code: 0,
      stdout: "hello",
      stderr: "",
    });
    await expectBrokerError(
      call("process.exec", "cat", [], { input: "x".repeat(11) }),
      "BROKER_ERR_TOO_LARGE",
    );
    expect(await call("process.exec", "sh", ["-c", "echo oops >&2; exit 3"])).toEqual({
      code: 3,
      stdout: "",
      stderr: "oops\n",
    });
    expect(await agentRuns(root, ["process:cat", "process:sh"], "cat", [], { input: "hello" })).toBe("hello");
  });

  it("runs only inside the workspace", async () => {
    const root = await workspace({ "docs/a.md": "" });
    const { call } = brokerFor(root, ["process:pwd"]);
    expect(await call("process.exec", "pwd", [], { cwd: "docs" })).toMatchObject({
      stdout: `${join(root, "docs")}\n`,
    });
    expect(await call("process.exec", "pwd", [])).toMatchObject({ stdout: `${root}\n` });
    await expectBrokerError(call("process.exec", "pwd", [], { cwd: "/" }), "BROKER_ERR_REFUSED");
    await expectBrokerError(call("process.exec", "pwd", [], { cwd: "../" }), "BROKER_ERR_BAD_ARGS");
    await expectBrokerError(call("process.exec", "pwd", [], { cwd: "docs/a.md" }), "BROKER_ERR_WRONG_TYPE");
    expect(await agentRuns(root, ["process:pwd"], "pwd", [], { cwd: "docs" })).toBe(
      `${join(root, "docs")}\n`,
    );
  });
});

/** The agent check: a hook holding the attack's grants runs a command that behaves, in a real session; its stdout. */
function agentRuns(
  root: string,
  grants: string[],
  command: string,
  args: string[],
  options: Record<string, unknown> = {},
): Promise<string> {
  const call = [command, args, options].map((value) => JSON.stringify(value)).join(", ");
  return agentSession({ root, grants, use: `return (await api.process.exec(${call})).stdout;` });
}
