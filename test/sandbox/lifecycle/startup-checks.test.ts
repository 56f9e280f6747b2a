import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createSandbox, SandboxError } from "../../../sandbox/index.js";
import { workspace } from "../../helpers/temp.js";
import { processWaitMs } from "../../helpers/timeouts.js";

const services = { log() {}, warn() {}, stateGet: async () => undefined, stateSet: async () => {} };
const built = fileURLToPath(new URL("../../../dist/sandbox/index.js", import.meta.url));

function runNode(args: string[], script: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...args, "--input-type=module", "-e", script],
      { timeout: processWaitMs },
      (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout }),
    );
  });
}

describe("starting a sandbox", () => {
  it("inline isolation in a process without --no-node-snapshot fails with a clear error", async () => {
    const root = await workspace();
    const script = `
      import { createSandbox } from ${JSON.stringify(built)};
      try { createSandbox({ isolation: "inline", root: ${JSON.stringify(root)}, services: {} }); console.log("created"); }
      catch (error) { console.log(error.code + " " + error.message); }
    `;
    const { stdout } = await runNode([], script);
    expect(stdout).toContain("SANDBOX_ERR_NODE_FLAGS");
    expect(stdout).toContain("--no-node-snapshot");
  });

  it("process isolation needs no flag in the agent's process, and never loads isolated-vm there", async () => {
    const root = await workspace();
    const script = `
      import { createRequire } from "node:module";
      import { createSandbox } from ${JSON.stringify(built)};
      const sandbox = createSandbox({ isolation: "process", root: ${JSON.stringify(root)}, services: { log() {}, warn() {}, stateGet: async () => {}, stateSet: async () => {} } });
      const [answer] = await sandbox.run("notify", "{}", [{ id: "a", name: "a", code: Buffer.from("export default defineHook({ on: { notify() { return { notice: 'hi' }; } } });"), points: ["notify"], grants: [] }]);
      await sandbox.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("isolated-vm"));
      console.log(JSON.stringify({ answer: answer.decision, loaded }));
    `;
    const { stdout } = await runNode([], script);
    expect(JSON.parse(stdout)).toEqual({ answer: { notice: "hi" }, loaded: false });
  });

  it("refuses options that cannot work", async () => {
    const root = await workspace();
    expect(() => createSandbox({ isolation: "process", root: "relative", services })).toThrow(SandboxError);
    expect(() => createSandbox({ isolation: "process", root, services, limits: { cpuMs: -1 } })).toThrow(
      "sandbox limit cpuMs must be a positive integer",
    );
    expect(() => createSandbox({ isolation: "process", root, services, quarantineAfter: 0 })).toThrow(
      "quarantineAfter must be a positive integer",
    );
  });

  it("close is idempotent, and calls after it answer SANDBOX_ERR_CLOSED", async () => {
    const root = await workspace();
    const sandbox = createSandbox({ isolation: "process", root, services });
    const hook = {
      id: "a",
      name: "a",
      code: Buffer.from("export default defineHook({ on: { notify() {} } });"),
      points: ["notify"],
      grants: [],
    };
    expect(await sandbox.run("notify", "{}", [hook])).toMatchObject([{ status: "ok" }]);
    await Promise.all([sandbox.close(), sandbox.close()]);
    expect(sandbox.pid).toBeUndefined();
    expect(await sandbox.run("notify", "{}", [hook])).toMatchObject([
      { status: "error", code: "SANDBOX_ERR_CLOSED" },
    ]);
  });
});
