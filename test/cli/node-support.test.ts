import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";
import { processWaitMs } from "../helpers/timeouts.js";

const bin = join(repoRoot, "bin", "hookyard.js");

/** Runs the bin on this Node, with the version the bin reads replaced before it starts. */
async function binOnNode(version: string, args: string[]) {
  const preload = join(await tempDir(), "pretend-node.mjs");
  await writeFile(
    preload,
    `Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } });\n`,
  );
  return spawnSync(process.execPath, ["--import", preload, bin, ...args], {
    encoding: "utf8",
    timeout: processWaitMs,
  });
}

describe("the Node lines hookyard runs on", () => {
  it.each(["20.20.2", "22.11.0", "23.11.1", "25.2.0", "27.0.0"])(
    "Node %s is refused in one line that names the supported lines, before anything loads",
    async (version) => {
      const result = await binOnNode(version, ["install", "some-guard"]);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `hookyard: Node ${version} is not supported: install Node 22 (22.12 or later), 24 or 26 and run hookyard with it\n`,
      );
    },
  );

  it("the Node this suite runs on is a supported one, and the bin starts on it", async () => {
    const result = spawnSync(process.execPath, [bin, "--version"], {
      encoding: "utf8",
      timeout: processWaitMs,
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
