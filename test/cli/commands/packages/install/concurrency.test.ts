import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnPausedCli } from "../../../../helpers/paused-install.js";
import { startRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace, publishGuard, snapshot } from "./fixtures.js";

describe("two installs in one workspace", () => {
  it("the second waits its turn: it is refused while the first holds the workspace, and nothing is lost", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    await publishGuard(registry, "1.0.0", {}, "notes");
    const ws = await emptyWorkspace();
    // The first install, in a process of its own, stops before it writes hookyard.lock.
    const first = spawnPausedCli(["install", "guard", "--registry", registry.url, "--yes"], {
      cwd: ws,
      env: { HOOKYARD_CONFIG: join(ws, ".c.json") },
    });
    await first.reached;
    const before = await snapshot(ws);
    const second = await cli(ws, "install", "notes", "--registry", registry.url, "--yes");
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("CLI_ERR_WORKSPACE_BUSY");
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(await snapshot(ws)).toEqual(before);

    first.release();
    expect((await first.exited).code).toBe(0);
    const again = await cli(ws, "install", "notes", "--registry", registry.url, "--yes");
    expect(again.code, again.stderr).toBe(0);
    const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
    expect(Object.keys(lock.packages).sort()).toEqual(["guard", "notes"]);
  });
});
