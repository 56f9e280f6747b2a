import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";
import { startRegistry } from "../../registry/helpers.js";
import { cli, emptyWorkspace, publishGuard, snapshot } from "./fixtures.js";

describe("two installs in one workspace", () => {
  it("the second waits its turn: it is refused while the first holds the workspace, and nothing is lost", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    await publishGuard(registry, "1.0.0", {}, "notes");
    const ws = await emptyWorkspace();
    const pause = await tempDir();
    const first = spawn(
      process.execPath,
      [
        "--no-node-snapshot",
        join(repoRoot, "bin", "hookyard.js"),
        "install",
        "guard",
        "--registry",
        registry.url,
        "--yes",
      ],
      {
        cwd: ws,
        env: {
          ...process.env,
          NO_COLOR: "1",
          HOOKYARD_CONFIG: join(ws, ".c.json"),
          HOOKYARD_TEST_PAUSE_BEFORE_LOCK: pause,
        },
        stdio: "ignore",
      },
    );
    const done = new Promise<number | null>((resolve) => first.on("close", resolve));
    for (let waited = 0; !existsSync(join(pause, "reached")); waited += 20) {
      if (waited > 30_000) throw new Error("the first install never reached its pause");
      await sleep(20);
    }
    const before = await snapshot(ws);
    const second = await cli(ws, "install", "notes", "--registry", registry.url, "--yes");
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("CLI_ERR_WORKSPACE_BUSY");
    expect(second.stderr).toContain(`pid ${first.pid}`);
    expect(await snapshot(ws)).toEqual(before);

    await writeFile(join(pause, "release"), "");
    expect(await done).toBe(0);
    const again = await cli(ws, "install", "notes", "--registry", registry.url, "--yes");
    expect(again.code, again.stderr).toBe(0);
    const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
    expect(Object.keys(lock.packages).sort()).toEqual(["guard", "notes"]);
  });
});
