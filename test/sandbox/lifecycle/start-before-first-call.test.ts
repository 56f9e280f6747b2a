import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createSandbox, type Sandbox, type SandboxHook } from "../../../sandbox/index.js";
import { workspace } from "../../helpers/temp.js";
import { processWaitMs } from "../../helpers/timeouts.js";

const services = { log() {}, warn() {}, stateGet: async () => undefined, stateSet: async () => {} };
const built = fileURLToPath(new URL("../../../dist/sandbox/index.js", import.meta.url));

const hook: SandboxHook = {
  id: "hi",
  name: "hi",
  code: Buffer.from("export default defineHook({ on: { notify() { return { notice: 'hi' }; } } });"),
  points: ["notify"],
  grants: [],
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function sandboxIn(isolation: "process" | "inline"): Promise<Sandbox> {
  return createSandbox({ isolation, root: await workspace(), services });
}

describe("start(): the sandbox process boots before the first call", () => {
  it("forks the process at once, and the first call runs in it", async () => {
    const sandbox = await sandboxIn("process");
    try {
      expect(sandbox.pid).toBeUndefined();
      sandbox.start();
      const pid = sandbox.pid;
      expect(pid).toBeGreaterThan(0);
      sandbox.start();
      expect(sandbox.pid).toBe(pid);
      expect(await sandbox.run("notify", "{}", [hook])).toMatchObject([
        { status: "ok", decision: { notice: "hi" } },
      ]);
      expect(sandbox.pid).toBe(pid);
    } finally {
      await sandbox.close();
    }
  });

  it("starts a new process when the last one died", async () => {
    const sandbox = await sandboxIn("process");
    try {
      sandbox.start();
      const pid = sandbox.pid as number;
      process.kill(pid, "SIGKILL");
      await expect.poll(() => sandbox.pid, { timeout: processWaitMs }).toBeUndefined();
      sandbox.start();
      expect(sandbox.pid).toBeGreaterThan(0);
      expect(sandbox.pid).not.toBe(pid);
      expect(await sandbox.run("notify", "{}", [hook])).toMatchObject([{ status: "ok" }]);
    } finally {
      await sandbox.close();
    }
  });

  it("a process that dies while it starts: the hook waiting for it did not run, answers SANDBOX_ERR_STARTUP, and is not quarantined for it", async () => {
    const sandbox = createSandbox({
      isolation: "process",
      root: await workspace(),
      services,
      quarantineAfter: 1,
    });
    try {
      sandbox.start();
      const answer = sandbox.run("notify", "{}", [hook]);
      // At once: Node takes far longer than this to start, let alone to load isolated-vm.
      process.kill(sandbox.pid as number, "SIGKILL");
      expect(await answer).toMatchObject([
        {
          status: "error",
          code: "SANDBOX_ERR_STARTUP",
          message: expect.stringContaining("the sandbox process died while starting (signal SIGKILL)"),
        },
      ]);
      expect(sandbox.quarantined.size).toBe(0);
      expect(await sandbox.run("notify", "{}", [hook])).toMatchObject([
        { status: "ok", decision: { notice: "hi" } },
      ]);
    } finally {
      await sandbox.close();
    }
  });

  it("closing while the process still boots ends it", async () => {
    const sandbox = await sandboxIn("process");
    sandbox.start();
    const pid = sandbox.pid as number;
    await sandbox.close();
    expect(sandbox.pid).toBeUndefined();
    await expect.poll(() => alive(pid), { timeout: processWaitMs }).toBe(false);
  });

  it("does nothing inline or once closed", async () => {
    const inline = await sandboxIn("inline");
    inline.start();
    expect(inline.pid).toBeUndefined();
    expect(await inline.run("notify", "{}", [hook])).toMatchObject([{ status: "ok" }]);
    await inline.close();

    const closed = await sandboxIn("process");
    await closed.close();
    closed.start();
    expect(closed.pid).toBeUndefined();
  });

  it("an idle started process keeps nobody waiting: the agent's process exits, and the sandbox process with it", async () => {
    const root = await workspace();
    const script = `
      import { createSandbox } from ${JSON.stringify(built)};
      const sandbox = createSandbox({ isolation: "process", root: ${JSON.stringify(root)}, services: { log() {}, warn() {}, stateGet: async () => {}, stateSet: async () => {} } });
      sandbox.start();
      console.log(sandbox.pid);
    `;
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--input-type=module", "-e", script],
        { timeout: processWaitMs },
        (error, out) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout: out }),
      );
    });
    // Killed at the timeout (code null) if the idle sandbox process kept it alive.
    expect(code).toBe(0);
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid), { timeout: processWaitMs }).toBe(false);
  });
});
